import { createHash } from 'node:crypto';
import type { Db } from './client';

const caches = new WeakMap<Db, Map<string, unknown>>();
const MAX_PER_DATABASE = 300;

/**
 * A query built once per shape (which filters are present, sort, page window) and prepared
 * with placeholders for the values. Building a Drizzle query with joins and a dozen filters
 * costs more CPU than the rest of the request, so hot list queries are built only once.
 * The key must determine the SQL completely; every varying value must be a placeholder.
 */
export function preparedOnce<P>(
  db: Db,
  kind: string,
  key: string,
  prepare: (name: string) => P,
): P {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const cacheKey = `${kind}:${key}`;
  let prepared = cache.get(cacheKey) as P | undefined;
  if (!prepared) {
    const name = `${kind}_${createHash('sha1').update(key).digest('base64url').slice(0, 20)}`;
    prepared = prepare(name);
    if (cache.size >= MAX_PER_DATABASE) cache.delete(cache.keys().next().value!);
    cache.set(cacheKey, prepared);
  }
  return prepared;
}
