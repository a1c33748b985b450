import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so equal values hash equally whatever their key
 * order. Object members that are undefined are left out; an undefined array element or value is
 * written `null`, as `JSON.stringify` (and so a jsonb column) writes it. Signed clinical
 * documents and idempotent requests are hashed with it: any change here changes stored hashes.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** SHA-256 (hex) of a value's canonical JSON. */
export const canonicalHash = (value: unknown) =>
  createHash('sha256').update(canonicalJson(value)).digest('hex');
