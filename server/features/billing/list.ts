import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { billableItems } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { reachOf, scopeFilter, scopeWhere } from '../../access/policy';
import type { Query } from '../../http/handler';
import { preparedOnce } from '../../db/prepared';
import { pageWindow } from '../../http/paging';
import { rawRows } from '../../db/raw-rows';
import { rememberedTotals, statusTotalsOf, totalsColumn, totalsFromArray } from './totals';
import { itemBodies, itemBodiesJoined, itemBodyOf, storedItemBody } from './item-read-model';

/** The items the caller reaches (access policy: a coach those of their appointments and clients). */
export const itemScope = (principal: Principal) => scopeFilter(principal, 'billableItems');

/** One item in the caller's scope as the contract's JSON text (the read model's body). */
export function itemBody(db: Db | Tx, principal: Principal, id: string) {
  return storedItemBody(db, id, itemScope(principal));
}

type ListQuery = Query<'listBillableItems'>;

const FILTERS = ['coachId', 'clientId', 'insurer', 'payerKind', 'fromDate', 'toDate'] as const;

/**
 * Every filter but the status (the tabs count each status under these), with placeholders
 * for the values, so the statements are prepared once per shape (which filters are present).
 */
function otherFilters(principal: Principal, q: Omit<ListQuery, 'page' | 'limit'>) {
  const p = (name: string) => sql.placeholder(name);
  const reach = reachOf(principal);
  const scopeCoach = reach.kind === 'coach' ? reach.coachId : undefined;
  const present = FILTERS.filter((f) => q[f] !== undefined && q[f] !== '');
  const where = and(
    scopeWhere('billableItems', reach.kind, p('scopeCoach')),
    q.coachId ? eq(billableItems.coachId, p('coachId')) : undefined,
    q.clientId ? eq(billableItems.clientId, p('clientId')) : undefined,
    q.insurer ? eq(billableItems.insurer, p('insurer')) : undefined,
    q.payerKind ? eq(billableItems.payerKind, p('payerKind')) : undefined,
    q.fromDate ? gte(billableItems.serviceDate, p('fromDate') as unknown as string) : undefined,
    q.toDate ? lte(billableItems.serviceDate, p('toDate') as unknown as string) : undefined,
  );
  const values: Record<string, unknown> = Object.fromEntries(present.map((f) => [f, q[f]]));
  if (scopeCoach) values.scopeCoach = scopeCoach;
  const shape = `${reach.kind}:${present.join(',')}`;
  const filtered = reach.kind !== 'all' || present.length > 0;
  return { where, values, shape, key: filtered ? `${shape}:${JSON.stringify(values)}` : undefined };
}

/** The page as the driver hands it over: one row, whatever the page holds. */
interface ItemPageRow {
  /** The page's items, their contract JSON bodies joined by commas; null for an empty page. */
  items: string | null;
  /** totalsColumn: the generation, and unfiltered the totals; null without a totals row. */
  totals: unknown[] | string | null;
}

/**
 * One page (newest service date first), the totals per status and the filtered sum, in one
 * round trip as a rule: the page's ids are an index walk in list order that stops after the
 * page (the status and filter indexes end in `service_date DESC, id DESC`), then only those
 * items' contract JSON bodies are read (the read model, item-read-model.ts) and come back
 * as one row: one text value that goes into the answer unparsed, beside the totals row,
 * read once. Unfiltered, the totals row's figures
 * are the tabs; filtered, its generation tells whether the totals remembered for this filter
 * set are still exact. An empty page (past the end) carries them too. Only filtered totals
 * not yet counted under today's generation take a second statement.
 */
export async function listItemPage(db: Db, principal: Principal, q: ListQuery): Promise<string> {
  const others = otherFilters(principal, q);
  const { limit, offset } = pageWindow(q.page, q.limit);
  const filtered = others.key !== undefined;
  const pageShape = `${others.shape}:${q.status ? 'status' : ''}:${q.page ?? 1}:${q.limit ?? 10}`;
  const prepared = preparedOnce(db, 'billing_items_page', pageShape, (name) => {
    const page = db
      .select({ id: billableItems.id, serviceDate: billableItems.serviceDate })
      .from(billableItems)
      .where(
        and(
          others.where,
          q.status ? eq(billableItems.status, sql.placeholder('status')) : undefined,
        ),
      )
      .orderBy(desc(billableItems.serviceDate), desc(billableItems.id))
      .limit(limit)
      .offset(offset)
      .as('page');
    // An aggregate without GROUP BY: one row, also for an empty page.
    return db
      .select({
        items: itemBodiesJoined(sql`${page.serviceDate} DESC, ${page.id} DESC`).as('items'),
        totals: totalsColumn(!filtered).as('totals'),
      })
      .from(page)
      .innerJoin(itemBodies, itemBodyOf(page.id))
      .prepare(name);
  });
  const [row] = await rawRows<ItemPageRow>(
    prepared,
    q.status ? { ...others.values, status: q.status } : others.values,
  );
  const state = row?.totals ? totalsFromArray(row.totals) : undefined;
  const statusTotals =
    (filtered ? rememberedTotals(db, others.key!, state?.generation) : state?.totals) ??
    (await statusTotalsOf(
      db,
      filtered
        ? { key: others.key!, shape: others.shape, where: others.where!, values: others.values }
        : undefined,
    ));
  const chosen = q.status ? [statusTotals[q.status]] : Object.values(statusTotals);
  const rest = JSON.stringify({
    itemCount: chosen.reduce((n, t) => n + t.count, 0),
    statusTotals,
    amountCentsTotal: chosen.reduce((n, t) => n + t.amountCents, 0),
  });
  // The items stay the text PostgreSQL wrote; the rest is a few numbers.
  return `{"billableItems":[${row?.items ?? ''}],${rest.slice(1)}`;
}

/** A batch takes at most this many ids, so "select everything matching" stops there. */
const SELECTION_LIMIT = 1000;

/**
 * Id, status and amount of every item under the list's filters, in the list's order, up to
 * one batch; the count says whether more match (the screen then says so).
 */
export async function listItemSelection(
  db: Db,
  principal: Principal,
  q: Query<'listBillableItemSelection'>,
) {
  const others = otherFilters(principal, q);
  const where = and(
    others.where,
    q.status ? eq(billableItems.status, sql.placeholder('status')) : undefined,
  );
  const values = q.status ? { ...others.values, status: q.status } : others.values;
  const shape = `${others.shape}:${q.status ? 'status' : ''}`;
  const select = preparedOnce(db, 'billing_selection', shape, (name) =>
    db
      .select({
        id: billableItems.id,
        status: billableItems.status,
        amountCents: billableItems.amountCents,
      })
      .from(billableItems)
      .where(where)
      .orderBy(desc(billableItems.serviceDate), desc(billableItems.id))
      .limit(SELECTION_LIMIT + 1)
      .prepare(name),
  );
  const rows = await select.execute(values);
  const capped = rows.length > SELECTION_LIMIT;
  const items = rows.slice(0, SELECTION_LIMIT);
  const count = () =>
    preparedOnce(db, 'billing_selection_count', shape, (name) =>
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(billableItems)
        .where(where)
        .prepare(name),
    ).execute(values);
  const itemCount = capped ? (await count())[0]!.n : items.length;
  return { items, itemCount, capped };
}
