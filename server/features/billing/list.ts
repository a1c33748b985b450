import { and, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { billableItems, clients, coaches } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import type { Query } from '../../http/handler';
import { pageWindow } from '../../http/paging';
import { BILLABLE_ITEM_STATUSES } from '../../../shared/contract/enums';

const client = alias(clients, 'client');
const coach = alias(coaches, 'coach');

/**
 * Coaches see the items of the appointments they held and of the clients they coach;
 * everyone else who may list (admins, onboarding managers, superadmins) sees all.
 */
export function itemScope(principal: Principal): SQL | undefined {
  if (principal.role !== 'COACH') return undefined;
  const coachId = principal.user?.coachId;
  if (!coachId) return sql`false`;
  return or(
    eq(billableItems.coachId, coachId),
    inArray(
      billableItems.clientId,
      sql`(SELECT ${clients.id} FROM ${clients} WHERE ${clients.coachedById} = ${coachId})`,
    ),
  );
}

/** Items with the names of client and coach, as the contract shows them. */
export function selectItems(db: Db | Tx) {
  return db
    .select({
      item: billableItems,
      clientFirstName: client.firstName,
      clientLastName: client.lastName,
      coachFirstName: coach.firstName,
      coachLastName: coach.lastName,
    })
    .from(billableItems)
    .innerJoin(client, eq(client.id, billableItems.clientId))
    .innerJoin(coach, eq(coach.id, billableItems.coachId));
}

type Joined = Awaited<ReturnType<ReturnType<typeof selectItems>['execute']>>[number];

export function toBillableItem({ item, ...names }: Joined) {
  return {
    id: item.id,
    appointmentId: item.appointmentId,
    clientId: item.clientId,
    coachId: item.coachId,
    client: { id: item.clientId, firstName: names.clientFirstName, lastName: names.clientLastName },
    coach: { id: item.coachId, firstName: names.coachFirstName, lastName: names.coachLastName },
    appointmentType: item.appointmentType,
    occasion: item.occasion,
    billingRuleId: item.billingRuleId,
    billingRuleVersion: item.billingRuleVersion,
    description: item.description,
    amountCents: item.amountCents,
    currency: 'EUR' as const,
    vatTreatment: item.vatTreatment,
    vatRatePercent: item.vatRatePercent as 0 | 19,
    vatExemptionReason: item.vatExemptionReason,
    payerKind: item.payerKind,
    insurer: item.insurer,
    serviceDate: item.serviceDate,
    status: item.status,
    validationErrors: item.validationErrors,
    approvedAt: item.approvedAt,
    invoiceSentAt: item.invoiceSentAt,
    cancelledAt: item.cancelledAt,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

type ListQuery = Query<'listBillableItems'>;

/** Every filter but the status: the tabs count each status under these. */
function otherFilters(principal: Principal, q: ListQuery) {
  return and(
    itemScope(principal),
    q.coachId ? eq(billableItems.coachId, q.coachId) : undefined,
    q.clientId ? eq(billableItems.clientId, q.clientId) : undefined,
    q.insurer ? eq(billableItems.insurer, q.insurer) : undefined,
    q.payerKind ? eq(billableItems.payerKind, q.payerKind) : undefined,
    q.fromDate ? gte(billableItems.serviceDate, q.fromDate) : undefined,
    q.toDate ? lte(billableItems.serviceDate, q.toDate) : undefined,
  );
}

/** One page (newest service date first), the totals per status and the filtered sum. */
export async function listItemPage(db: Db, principal: Principal, q: ListQuery) {
  const others = otherFilters(principal, q);
  const { limit, offset } = pageWindow(q.page, q.limit);
  const [rows, totals] = await Promise.all([
    selectItems(db)
      .where(and(others, q.status ? eq(billableItems.status, q.status) : undefined))
      .orderBy(desc(billableItems.serviceDate), desc(billableItems.id))
      .limit(limit)
      .offset(offset),
    db
      .select({
        status: billableItems.status,
        count: sql<number>`count(*)::int`,
        amountCents: sql<number>`coalesce(sum(${billableItems.amountCents}), 0)::bigint`,
      })
      .from(billableItems)
      .where(others)
      .groupBy(billableItems.status),
  ]);
  const statusTotals = Object.fromEntries(
    BILLABLE_ITEM_STATUSES.map((status) => {
      const t = totals.find((x) => x.status === status);
      return [status, { count: t?.count ?? 0, amountCents: Number(t?.amountCents ?? 0) }];
    }),
  ) as Record<(typeof BILLABLE_ITEM_STATUSES)[number], { count: number; amountCents: number }>;
  const chosen = q.status ? [statusTotals[q.status]] : Object.values(statusTotals);
  return {
    billableItems: rows.map(toBillableItem),
    itemCount: chosen.reduce((n, t) => n + t.count, 0),
    statusTotals,
    amountCentsTotal: chosen.reduce((n, t) => n + t.amountCents, 0),
  };
}
