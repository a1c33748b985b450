import { Temporal } from '@js-temporal/polyfill';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/raw-rows';
import {
  appointments,
  billableItems,
  billingDismissedAppointments,
  clients,
  events,
} from '../../db/schema/index';
import {
  evaluateRules,
  occasionOf,
  serviceDateOf,
  validationErrorsFor,
  type BillingFacts,
  type ClientBillingData,
} from './matching';
import { orderedRules, vatRateOf, type BillingRuleRow } from './rules';
import type { EventType } from '../../../shared/contract/enums';
import { inTransaction } from '../../db/transaction';

/** What the item job needs to know about the clock and the client change notice. */
export interface ItemClock {
  now: Date;
  changeNoticeHours: number;
}

const appointmentColumns = {
  appointmentId: appointments.id,
  clientId: appointments.clientId,
  coachId: appointments.coachId,
  appointmentType: appointments.appointmentType,
  startDate: appointments.startDate,
  endDate: appointments.endDate,
  noShow: appointments.noShow,
  cancelledAt: appointments.cancelledAt,
  isProvisional: appointments.isProvisional,
  hasNotSignedRequiredContract: clients.hasNotSignedRequiredContract,
  street: clients.street,
  postalCode: clients.postalCode,
  city: clients.city,
  insurer: clients.insurer,
  insurerCode: clients.insurerCode,
  campaign: clients.campaign,
  clientType: clients.clientType,
  paidBySponsor: clients.paidBySponsor,
};

type AppointmentFacts = {
  appointmentId: string;
  clientId: string;
  coachId: string;
  appointmentType: BillingFacts['appointmentType'];
  startDate: string;
  endDate: string;
  noShow: boolean;
  cancelledAt: string | null;
  isProvisional: boolean;
  clientType: BillingFacts['clientType'];
  paidBySponsor: boolean;
} & ClientBillingData;

/** The item an appointment gets today: the first matching rule's snapshot, or no rule. */
export function itemFor(row: AppointmentFacts, rules: readonly BillingRuleRow[], clock: ItemClock) {
  const occasion = occasionOf(
    row,
    Temporal.Instant.fromEpochMilliseconds(clock.now.getTime()),
    clock.changeNoticeHours,
  );
  if (!occasion) return null;
  const serviceDate = serviceDateOf(row.startDate);
  const facts: BillingFacts = {
    appointmentType: row.appointmentType,
    insurer: row.insurer,
    campaign: row.campaign,
    clientType: row.clientType,
    sponsorPays: row.paidBySponsor,
    occasion,
    serviceDate,
  };
  const evaluation = evaluateRules(rules, facts);
  const rule = evaluation.match;
  const validationErrors = validationErrorsFor(row, rule?.payerKind ?? null);
  return {
    evaluation,
    values: {
      appointmentId: row.appointmentId,
      clientId: row.clientId,
      coachId: row.coachId,
      appointmentType: row.appointmentType,
      occasion,
      serviceDate,
      insurer: row.insurer,
      billingRuleId: rule?.id ?? null,
      billingRuleVersion: rule?.version ?? null,
      description: rule?.description ?? 'Keine passende Abrechnungsregel',
      amountCents: rule?.amountCents ?? 0,
      vatTreatment: rule?.vatTreatment ?? 'standard',
      vatRatePercent: vatRateOf(rule?.vatTreatment ?? 'standard'),
      vatExemptionReason: rule?.vatExemptionReason ?? null,
      payerKind: rule?.payerKind ?? 'client',
      status: validationErrors.length ? ('validation_failed' as const) : ('pending' as const),
      validationErrors,
    },
  };
}

/** The appointment (and client) facts for one appointment, for the preview. */
export async function appointmentFacts(db: Db | Tx, appointmentId: string) {
  const [row] = await db
    .select(appointmentColumns)
    .from(appointments)
    .innerJoin(clients, eq(clients.id, appointments.clientId))
    .where(eq(appointments.id, appointmentId));
  return (row as AppointmentFacts | undefined) ?? null;
}

// An appointment is a candidate while it has no item that counts: a live one, or one staff
// cancelled. Items the job cancelled itself (the appointment stopped being billable) and
// dismissed (deleted) appointments do not count / block for good.
const noCountingItem = sql`NOT EXISTS (
  SELECT 1 FROM ${billableItems} b WHERE b.appointment_id = ${appointments.id}
    AND NOT (b.status = 'cancelled' AND b.cancelled_by_system))
  AND NOT EXISTS (SELECT 1 FROM ${billingDismissedAppointments} d
    WHERE d.appointment_id = ${appointments.id})`;

/** Candidates in SQL; occasionOf decides for each (the same rule, in one place). */
const maybeBillable = (clock: ItemClock) => {
  const now = clock.now.toISOString();
  return or(
    sql`${appointments.cancelledAt} IS NULL AND NOT ${appointments.isProvisional}
      AND (${appointments.endDate} <= ${now} OR ${appointments.noShow})`,
    sql`${appointments.cancelledAt} > ${appointments.startDate} - make_interval(hours => ${clock.changeNoticeHours})`,
  );
};

type Created = {
  id: string;
  appointmentId: string;
  clientId: string;
  coachId: string;
  status: string;
};

function systemEvents(
  type: EventType,
  rows: Created[],
  changes: (row: Created) => Record<string, unknown>,
) {
  return rows.map((row) => ({
    type,
    entityType: 'billable_item',
    entityId: row.id,
    appointmentId: row.appointmentId,
    clientId: row.clientId,
    coachId: row.coachId,
    source: 'system' as const,
    important: false,
    changes: changes(row),
  }));
}

/**
 * Where the last run that emptied the backlog stood, per database (in this process): the
 * clock's instant for end dates and the database's for `updated_at`. Later runs look only at
 * appointments that ended after it or changed after it (less a margin for transactions that
 * were still open then), through `appointments_end_idx` and `appointments_updated_idx`,
 * instead of anti-joining every appointment ever held. A new process starts without one: its
 * first run reads everything once, which is also how a backlog after downtime is found.
 */
const drained = new WeakMap<Db, { endAfter: string; changedAfter: string }>();
const MARGIN = "interval '2 days'";

/**
 * Makes the items of up to `limit` appointments that became billable (oldest first) and
 * brings not-yet-approved items in line with appointments changed since. Returns how many
 * items it created, updated and cancelled; a full batch means more may wait.
 */
export async function syncBillableItems(
  db: Db,
  clock: ItemClock,
  limit = 500,
  after?: CandidateCursor,
) {
  const since = drained.get(db);
  const result = await inTransaction(db, async (tx) => {
    // The pool's statements keep one generic plan per connection (db/client.ts). Made while
    // billable_items was small, it probes items by scanning them, and a backlog run then
    // grows with the square of the items; planned each time, it stays an index probe.
    await tx.execute(sql`SET LOCAL plan_cache_mode = force_custom_plan`);
    const rules = await orderedRules(tx);
    const created = await createItems(tx, rules, clock, limit, since, after);
    // A run's later batches only go on creating: the first one refreshed already.
    const { updated, cancelled } = after
      ? { updated: 0, cancelled: 0 }
      : await refreshItems(tx, rules, clock, limit, since);
    return { ...created, updated, cancelled };
  });
  if (result.candidates < limit && !after) {
    drained.set(db, {
      endAfter: new Date(clock.now.getTime() - 2 * 86_400_000).toISOString(),
      changedAfter: result.startedAt,
    });
  }
  const { created, updated, cancelled, candidates, last } = result;
  return { created, updated, cancelled, candidates, last };
}

/** Where a run's previous batch stopped, in the candidates' order (end, id). */
export interface CandidateCursor {
  endDate: string;
  id: string;
}

async function createItems(
  tx: Tx,
  rules: BillingRuleRow[],
  clock: ItemClock,
  limit: number,
  since: { endAfter: string; changedAfter: string } | undefined,
  after: CandidateCursor | undefined,
) {
  const [{ startedAt }] = rowsOf<{ startedAt: string }>(
    await tx.execute(
      sql`SELECT (transaction_timestamp() - ${sql.raw(MARGIN)})::text AS "startedAt"`,
    ),
  ) as [{ startedAt: string }];
  const recent = since
    ? sql`(${appointments.endDate} > ${since.endAfter} OR ${appointments.updatedAt} > ${since.changedAfter}::timestamptz)`
    : undefined;
  const candidates = (await tx
    .select(appointmentColumns)
    .from(appointments)
    .innerJoin(clients, eq(clients.id, appointments.clientId))
    .where(
      and(
        recent,
        // Within one run, each batch goes on after the last: candidates that stay without an
        // item (not billable after all, or skipped as locked) are not walked again and again.
        after
          ? sql`(${appointments.endDate}, ${appointments.id}) > (${after.endDate}::timestamptz, ${after.id}::uuid)`
          : undefined,
        maybeBillable(clock),
        noCountingItem,
      ),
    )
    .orderBy(asc(appointments.endDate), asc(appointments.id))
    .limit(limit)
    // Two job runs at once take different appointments instead of waiting.
    .for('update', { of: appointments, skipLocked: true })) as AppointmentFacts[];
  const values = candidates.flatMap((row) => {
    const item = itemFor(row, rules, clock);
    return item ? [item.values] : [];
  });
  const tail = candidates.at(-1);
  const last: CandidateCursor | undefined = tail
    ? { endDate: tail.endDate, id: tail.appointmentId }
    : after;
  const made = (n: number) => ({ created: n, candidates: candidates.length, startedAt, last });
  if (values.length === 0) return made(0);
  const rows = await tx.insert(billableItems).values(values).onConflictDoNothing().returning({
    id: billableItems.id,
    appointmentId: billableItems.appointmentId,
    clientId: billableItems.clientId,
    coachId: billableItems.coachId,
    status: billableItems.status,
    billingRuleId: billableItems.billingRuleId,
    billingRuleVersion: billableItems.billingRuleVersion,
    amountCents: billableItems.amountCents,
  });
  if (rows.length) {
    await tx.insert(events).values(
      systemEvents('billable_item.created', rows, (row) => {
        const r = rows.find((x) => x.id === row.id)!;
        return {
          status: r.status,
          billingRuleId: r.billingRuleId,
          billingRuleVersion: r.billingRuleVersion,
          amountCents: r.amountCents,
        };
      }),
    );
  }
  return made(rows.length);
}

const SNAPSHOT_FIELDS = [
  'occasion',
  'serviceDate',
  'appointmentType',
  'coachId',
  'insurer',
  'billingRuleId',
  'billingRuleVersion',
  'description',
  'amountCents',
  'vatTreatment',
  'vatExemptionReason',
  'payerKind',
  'status',
] as const;

/**
 * Items not yet approved whose appointment changed after them (moved, no-show set or taken
 * back, cancelled), and failed items whose client changed: evaluated again. One whose
 * appointment is no longer billable is cancelled by the system; one whose facts differ takes
 * today's rule. Approved and invoiced items never change here.
 */
async function refreshItems(
  tx: Tx,
  rules: BillingRuleRow[],
  clock: ItemClock,
  limit: number,
  since: { changedAfter: string } | undefined,
) {
  // After a drained run, only items whose appointment or client changed since are looked at
  // (through the updated_at indexes), not every item waiting for approval.
  const changedSince = since
    ? or(
        sql`${billableItems.appointmentId} IN (SELECT id FROM ${appointments} WHERE ${appointments.updatedAt} > ${since.changedAfter}::timestamptz)`,
        sql`${billableItems.clientId} IN (SELECT id FROM ${clients} WHERE ${clients.updatedAt} > ${since.changedAfter}::timestamptz)`,
      )
    : undefined;
  const rows = await tx
    .select({ ...appointmentColumns, item: billableItems })
    .from(billableItems)
    .innerJoin(appointments, eq(appointments.id, billableItems.appointmentId))
    .innerJoin(clients, eq(clients.id, appointments.clientId))
    .where(
      and(
        inArray(billableItems.status, ['pending', 'validation_failed']),
        changedSince,
        or(
          sql`${appointments.updatedAt} > ${billableItems.updatedAt}`,
          sql`${billableItems.status} = 'validation_failed' AND ${clients.updatedAt} > ${billableItems.updatedAt}`,
        ),
      ),
    )
    .limit(limit)
    .for('update', { of: billableItems, skipLocked: true });
  let updated = 0;
  let cancelled = 0;
  for (const row of rows) {
    const { item: before, ...facts } = row;
    const next = itemFor(facts as AppointmentFacts, rules, clock);
    if (!next) {
      await tx
        .update(billableItems)
        .set({
          status: 'cancelled',
          cancelledAt: sql`now()`,
          cancelledBySystem: true,
          updatedAt: sql`now()`,
        })
        .where(eq(billableItems.id, before.id));
      await tx.insert(events).values(
        systemEvents('billable_item.cancelled', [before], () => ({
          status: { from: before.status, to: 'cancelled' },
          reason: 'appointment_not_billable',
        })),
      );
      cancelled++;
      continue;
    }
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const field of SNAPSHOT_FIELDS) {
      if (before[field] !== next.values[field])
        changes[field] = { from: before[field], to: next.values[field] };
    }
    const errorsChanged =
      JSON.stringify(before.validationErrors) !== JSON.stringify(next.values.validationErrors);
    // Touched anyway, so the same change is not looked at again next minute.
    await tx
      .update(billableItems)
      .set({ ...next.values, updatedAt: sql`now()` })
      .where(eq(billableItems.id, before.id));
    if (Object.keys(changes).length || errorsChanged) {
      await tx
        .insert(events)
        .values(systemEvents('billable_item.updated', [before], () => changes));
      updated++;
    }
  }
  return { updated, cancelled };
}
