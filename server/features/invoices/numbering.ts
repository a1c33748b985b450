import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { invoiceNumberCounters } from '../../db/schema/index';

/**
 * Reserves `count` consecutive numbers of `year`: the counter row is locked FOR UPDATE until
 * the caller's transaction ends, so a concurrent run waits and continues after the last number
 * this one used; a rollback gives the numbers back. No gap, no number twice.
 */
export async function allocateNumbers(tx: Tx, year: number, count: number): Promise<number[]> {
  if (count === 0) return [];
  await tx.insert(invoiceNumberCounters).values({ year, lastNumber: 0 }).onConflictDoNothing();
  const [row] = await tx
    .select({ lastNumber: invoiceNumberCounters.lastNumber })
    .from(invoiceNumberCounters)
    .where(eq(invoiceNumberCounters.year, year))
    .for('update');
  const first = row!.lastNumber + 1;
  await tx
    .update(invoiceNumberCounters)
    .set({ lastNumber: sql`${invoiceNumberCounters.lastNumber} + ${count}` })
    .where(eq(invoiceNumberCounters.year, year));
  return Array.from({ length: count }, (_, i) => first + i);
}

export const formatNumber = (year: number, sequence: number) =>
  `${year}-${String(sequence).padStart(5, '0')}`;
