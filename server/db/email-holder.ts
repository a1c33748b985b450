import { sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';

/**
 * The id of the row of `table` that has `email`, compared without case (addresses are
 * unique per table regardless of case), or null.
 */
export async function emailHolder(
  db: Db | Tx,
  table: PgTable & { id: PgColumn; email: PgColumn },
  email: string,
): Promise<string | null> {
  const [row] = await db
    .select({ id: table.id })
    .from(table)
    .where(sql`lower(${table.email}) = lower(${email})`);
  return (row?.id as string | undefined) ?? null;
}
