import { and, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { billableItemApi, billableItems } from '../../db/schema/index';

/**
 * The billing read model: each item as the contract's `BillableItem` (openapi/product.yaml),
 * stored as compact JSON text in `billable_item_api` so a list page is sent without parsing or
 * mapping a row. PostgreSQL writes the bodies, in the function named below (last replaced by
 * migration 0026), from triggers on every item write and on a client's or coach's new name.
 * Every reader of item bodies goes through this module.
 *
 * That function is the only place that spells the contract's fields for items, in SQL, so it
 * can drift from the contract unseen by the type checker. The read-model test
 * (tests/integration/billing-item-read-model.test.ts) holds bodies it wrote against the
 * contract's schema: fields, nesting, types and nulls. Changing `BillableItem` therefore takes
 * a migration that replaces the function and rewrites the stored bodies
 * (`UPDATE billable_item_api SET body = billable_item_api_body(…)`), as 0026 did.
 */
export const ITEM_BODY_FUNCTION = 'billable_item_api_body';

/** Join condition: the stored body of the item whose id is `itemId`. */
export const itemBodyOf = (itemId: AnyColumn) => eq(billableItemApi.itemId, itemId);

/** The stored bodies' table, for a join with `itemBodyOf`. */
export const itemBodies = billableItemApi;

/**
 * The bodies of the joined items as one JSON array's inside (bodies joined by commas) in
 * `order`; an aggregate, so null when no item was joined.
 */
export const itemBodiesJoined = (order: SQL) =>
  sql<string | null>`string_agg(${billableItemApi.body}, ',' ORDER BY ${order})`;

/** One item's stored body (under `scope`, a condition on `billable_items`), if there is one. */
export async function storedItemBody(
  db: Db | Tx,
  id: string,
  scope: SQL | undefined,
): Promise<string | undefined> {
  const [row] = await db
    .select({ body: billableItemApi.body })
    .from(billableItems)
    .innerJoin(billableItemApi, itemBodyOf(billableItems.id))
    .where(and(eq(billableItems.id, id), scope));
  return row?.body;
}
