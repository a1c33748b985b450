import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { groupBy } from '../../shared/group-by';
import type { Db, Tx } from './client';

/**
 * The rows of `table` that belong to the parents `ids` (its column `parent` holds the
 * parent's id), in `order`, grouped by parent: one read for a whole list of parents, none
 * when the list is empty. A parent without children has no entry.
 */
export async function childrenOf<
  T extends PgTable,
  K extends keyof T['$inferSelect'] & keyof T & string,
>(
  db: Db | Tx,
  table: T,
  parent: K,
  ids: readonly string[],
  ...order: SQL[]
): Promise<Map<T['$inferSelect'][K], T['$inferSelect'][]>> {
  if (ids.length === 0) return new Map();
  const rows = (await db
    .select()
    .from(table as PgTable)
    .where(inArray(table[parent] as unknown as PgColumn, [...ids]))
    .orderBy(...order)) as T['$inferSelect'][];
  return groupBy(rows, (row) => row[parent]);
}
