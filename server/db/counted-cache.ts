import type { Db } from './client';

/** A value remembered with the generation of the tables it was counted from. */
export interface Counted<V> {
  generation: string;
  value: V;
}

/**
 * Counts remembered per database and key (a list's filter set and its values) with the
 * generation they were taken under. A generation is a counter the writing transactions bump,
 * read in the same snapshot as the count: while a later statement still sees that generation,
 * nothing the count depends on was written, so the remembered count is exact without walking
 * the rows again. Per process and bounded; the generation makes it right across processes.
 */
export interface CountedCache<V> {
  /** What is remembered under `key`, whatever its generation (to extend or to compare). */
  get(db: Db, key: string): Counted<V> | undefined;
  /** The value remembered under `key` if it was counted under `generation`. */
  at(db: Db, key: string, generation: string | null | undefined): V | undefined;
  remember(db: Db, key: string, generation: string, value: V): void;
}

/** A counted cache keeping at most `limit` keys per database, the oldest dropped first. */
export function countedCache<V>(limit: number): CountedCache<V> {
  const perDb = new WeakMap<Db, Map<string, Counted<V>>>();
  const get = (db: Db, key: string) => perDb.get(db)?.get(key);
  return {
    get,
    at(db, key, generation) {
      if (generation == null) return undefined;
      const known = get(db, key);
      return known && known.generation === generation ? known.value : undefined;
    },
    remember(db, key, generation, value) {
      let entries = perDb.get(db);
      if (!entries) perDb.set(db, (entries = new Map()));
      if (!entries.has(key) && entries.size >= limit) entries.delete(entries.keys().next().value!);
      entries.set(key, { generation, value });
    },
  };
}
