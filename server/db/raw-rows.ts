/**
 * The rows of a prepared Drizzle select as the driver returns them: one object per row keyed
 * by the result's column names, timestamps as text, no per-field mapping. Drizzle's own
 * mapping checks every field of every row (`is(…)`) and cost a tenth of a list request's CPU;
 * list pages map their rows by hand instead. Output columns must have distinct names.
 *
 * Both drivers' prepared queries (node-postgres and PGlite) have `all()`; Drizzle's abstract
 * type only declares `execute()`.
 */
export function rawRows<Row>(
  prepared: { execute(values?: Record<string, unknown>): Promise<unknown> },
  values: Record<string, unknown>,
): Promise<Row[]> {
  const all = (prepared as { all?: (v: Record<string, unknown>) => Promise<unknown> }).all;
  if (typeof all !== 'function') throw new Error('rawRows: the prepared query has no all()');
  return all.call(prepared, values) as Promise<Row[]>;
}

/**
 * The rows of a raw `db.execute(sql…)`: node-postgres answers `{ rows }`, PGlite's drizzle
 * driver the array itself.
 */
export const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
