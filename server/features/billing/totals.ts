import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { countedCache } from '../../db/counted-cache';
import { preparedOnce } from '../../db/prepared';
import { billableItems, billingTotals } from '../../db/schema/index';
import { BILLABLE_ITEM_STATUSES } from '../../../shared/contract/enums';

type Status = (typeof BILLABLE_ITEM_STATUSES)[number];
export type StatusTotals = Record<Status, { count: number; amountCents: number }>;

const zero = (): StatusTotals =>
  Object.fromEntries(
    BILLABLE_ITEM_STATUSES.map((s) => [s, { count: 0, amountCents: 0 }]),
  ) as StatusTotals;

type TotalsRow = typeof billingTotals.$inferSelect;

function fromRow(row: TotalsRow): StatusTotals {
  const n = (v: number | string) => Number(v);
  return {
    pending: { count: n(row.pendingCount), amountCents: n(row.pendingCents) },
    validation_failed: {
      count: n(row.validationFailedCount),
      amountCents: n(row.validationFailedCents),
    },
    approved: { count: n(row.approvedCount), amountCents: n(row.approvedCents) },
    invoice_sent: { count: n(row.invoiceSentCount), amountCents: n(row.invoiceSentCents) },
    cancelled: { count: n(row.cancelledCount), amountCents: n(row.cancelledCents) },
  };
}

/** The totals row's columns in the order `totalsColumn` lists them. */
const TOTALS_COLUMNS = [
  billingTotals.pendingCount,
  billingTotals.pendingCents,
  billingTotals.validationFailedCount,
  billingTotals.validationFailedCents,
  billingTotals.approvedCount,
  billingTotals.approvedCents,
  billingTotals.invoiceSentCount,
  billingTotals.invoiceSentCents,
  billingTotals.cancelledCount,
  billingTotals.cancelledCents,
] as const;

/**
 * The totals row as one JSON array column of a list page: the item generation (as text, so
 * no digit is lost), then, with `figures`, all items' count and amount per status in the
 * order `TOTALS_COLUMNS` lists them. Null while the row is missing (after a truncate).
 */
export const totalsColumn = (figures: boolean) =>
  sql<unknown[] | string | null>`(SELECT json_build_array(${sql.join(
    [sql`${billingTotals.generation}::text`, ...(figures ? TOTALS_COLUMNS : [])],
    sql`, `,
  )}) FROM ${billingTotals} WHERE ${billingTotals.id} = 1)`;

/** `totalsColumn`'s array: the generation, and the totals per status if it carries them. */
export function totalsFromArray(value: unknown[] | string): {
  generation: string;
  totals: StatusTotals | undefined;
} {
  const v = (typeof value === 'string' ? JSON.parse(value) : value) as Array<number | string>;
  const n = (i: number) => Number(v[i + 1]);
  return {
    generation: String(v[0]),
    totals:
      v.length > 1
        ? {
            pending: { count: n(0), amountCents: n(1) },
            validation_failed: { count: n(2), amountCents: n(3) },
            approved: { count: n(4), amountCents: n(5) },
            invoice_sent: { count: n(6), amountCents: n(7) },
            cancelled: { count: n(8), amountCents: n(9) },
          }
        : undefined,
  };
}

/** Filtered totals remembered under `generation` (the page's statement read it), if any. */
export function rememberedTotals(db: Db, key: string, generation: string | null | undefined) {
  return remembered.at(db, key, generation);
}

/** The totals row (migration 0012): all items' totals and the item generation. */
const readTotalsRow = (db: Db) =>
  preparedOnce(db, 'billing_totals', 'row', (name) =>
    db.select().from(billingTotals).where(eq(billingTotals.id, 1)).prepare(name),
  );

/** Filtered totals remembered per filter set with the generation they were counted under. */
const remembered = countedCache<StatusTotals>(2000);

/**
 * A GROUP BY over the filtered items, with the generation its snapshot saw (null when the
 * totals row is missing, after a truncate), so the result can be remembered exactly.
 */
async function countFiltered(
  db: Db,
  shape: string,
  where: SQL | undefined,
  values: Record<string, unknown>,
) {
  const prepared = preparedOnce(db, 'billing_status_totals', shape, (name) =>
    db
      .select({
        status: billableItems.status,
        count: sql<number>`count(*)::int`,
        amountCents: sql<string>`coalesce(sum(${billableItems.amountCents}), 0)::bigint`,
        generation: sql<
          string | null
        >`(SELECT ${billingTotals.generation} FROM ${billingTotals} WHERE ${billingTotals.id} = 1)::text`,
      })
      .from(billableItems)
      .where(and(where))
      .groupBy(billableItems.status)
      .prepare(name),
  );
  const rows = await prepared.execute(values);
  const totals = zero();
  for (const r of rows) totals[r.status] = { count: r.count, amountCents: Number(r.amountCents) };
  return { totals, generation: rows[0]?.generation ?? null };
}

/**
 * The count and amount per status under `where` (the list's filters but the status).
 * Without a filter they are the totals row, kept by triggers in every item-writing
 * transaction. With one they are counted over the filtered items (an index range: a coach,
 * a client, a date range) once per item generation and remembered; while the totals row
 * still shows that generation, no item was written since and the remembered totals are
 * exact. `key` names the filter set and its values; undefined means no filter.
 */
export async function statusTotalsOf(
  db: Db,
  filter: { key: string; shape: string; where: SQL; values: Record<string, unknown> } | undefined,
): Promise<StatusTotals> {
  const [row] = await readTotalsRow(db).execute();
  if (!filter) {
    if (row) return fromRow(row);
    return (await countFiltered(db, 'all', undefined, {})).totals;
  }
  const known = row && remembered.at(db, filter.key, String(row.generation));
  if (known) return known;
  const counted = await countFiltered(db, filter.shape, filter.where, filter.values);
  if (counted.generation !== null) {
    remembered.remember(db, filter.key, counted.generation, counted.totals);
  }
  return counted.totals;
}
