import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';

const PAIR_BATCH = 100;

/**
 * Deletes invoices whose retention is over, `term` after the end of the calendar year (the
 * practice's, Europe/Berlin) they were issued in. An invoice and its cancellation invoice go
 * together, when the later of the two is due, so neither outlives the other. The stored PDF
 * and XML are columns of the row; the links to the billed items go first. The billed items
 * themselves stay with their client (they go with the client record), and the numbering
 * counter of the year stays, so no number is ever issued again.
 */
export async function deleteInvoices(tx: Tx, now: string, term: string): Promise<number> {
  const dueBefore = sql`(date_trunc('year', ${now}::timestamptz AT TIME ZONE 'Europe/Berlin') - ${term}::interval)::date`;
  const pair = (alias: string) => sql.raw(`coalesce(${alias}.cancels_invoice_id, ${alias}.id)`);
  const rows = (await tx.execute(sql`
    SELECT DISTINCT ${pair('i')} AS pair FROM invoices i
     WHERE i.invoice_date < ${dueBefore}
       AND NOT EXISTS (
         SELECT 1 FROM invoices o
          WHERE (o.id = ${pair('i')} OR o.cancels_invoice_id = ${pair('i')})
            AND o.invoice_date >= ${dueBefore})
     LIMIT ${sql.raw(String(PAIR_BATCH))}`)) as unknown as { rows: { pair: string }[] };
  if (rows.rows.length === 0) return 0;
  const pairs = sql.join(
    rows.rows.map((r) => sql`${r.pair}::uuid`),
    sql`, `,
  );
  const members = sql`SELECT id FROM invoices WHERE id IN (${pairs}) OR cancels_invoice_id IN (${pairs})`;
  await tx.execute(sql`DELETE FROM invoice_items WHERE invoice_id IN (${members})`);
  const deleted = (await tx.execute(
    sql`DELETE FROM invoices WHERE id IN (${members})`,
  )) as unknown as { rowCount?: number | null; affectedRows?: number };
  return deleted.rowCount ?? deleted.affectedRows ?? 0;
}
