import { Temporal } from '@js-temporal/polyfill';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Config } from '../config';
import type { Db, Tx } from '../db/client';
import { billableItems, communications, events, invoiceItems, invoices } from '../db/schema/index';
import { applyAction } from '../features/billing/index';
import { cancelInvoice, practiceFor, runInvoices, sendInvoice } from '../features/invoices/index';
import type { JobQueue } from '../jobs/queue';
import type { EventType } from '../../shared/contract/enums';
import { actingAs } from './db-steps';
import type { DemoData } from './types';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ZONE = 'Europe/Berlin';

/** Payers invoiced once a month with one collective invoice (Sammelrechnung). */
const COLLECTIVE = new Set(['sponsor', 'statutory_insurer', 'private_insurer']);

/** Why the demo's one cancelled invoice was cancelled (it is issued again right after). */
export const STORNO_REASON = 'Rechnungsanschrift fehlerhaft: neue Anschrift nach Umzug.';

type ItemRow = Pick<
  typeof billableItems.$inferSelect,
  'id' | 'clientId' | 'payerKind' | 'status' | 'serviceDate' | 'createdAt'
>;

/** One billing round: the admin approves these items and issues their invoices at `at`. */
export interface BillingRound {
  at: number;
  itemIds: string[];
}

/** 10:00 Berlin on the first weekday on or after `date`. */
function workdayMorning(date: Temporal.PlainDate): number {
  let day = date;
  while (day.dayOfWeek > 5) day = day.add({ days: 1 });
  return day.toZonedDateTime({ timeZone: ZONE, plainTime: new Temporal.PlainTime(10) })
    .epochMilliseconds;
}

const berlinDate = (at: number) =>
  Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(ZONE).toPlainDate();

/** Self-paying clients whose coaching closed last that got their final invoice in the demo. */
const FINAL_INVOICES = 4;

/**
 * When the practice invoiced what: sponsors and insurers get a collective invoice for the
 * last finished month on the next month's third day (or the weekday after); the self-paying
 * clients whose coaching closed last get their final invoice two days after it closed. The
 * other clients' items stay open (the dashboard's "Offen"). Few invoices on purpose: each is a
 * PDF (and for business payers an XRechnung) rendered while seeding.
 */
export function planBillingRounds(
  data: DemoData,
  items: readonly ItemRow[],
  now: Date,
): BillingRound[] {
  const latest = now.getTime() - 2 * 60 * MINUTE;
  const due = items.filter((i) => i.status === 'pending');
  const rounds = new Map<number, string[]>();
  const add = (at: number, ids: string[]) => {
    const fit = ids.filter((id) => {
      const item = due.find((i) => i.id === id)!;
      return new Date(item.createdAt).getTime() <= at;
    });
    if (fit.length) rounds.set(at, [...(rounds.get(at) ?? []), ...fit]);
  };

  // The last month whose collective round has passed.
  let month = berlinDate(latest).with({ day: 1 });
  while (workdayMorning(month.with({ day: 3 })) > latest) month = month.subtract({ months: 1 });
  const previous = month.subtract({ months: 1 });
  add(
    workdayMorning(month.with({ day: 3 })),
    due
      .filter(
        (i) =>
          COLLECTIVE.has(i.payerKind) &&
          Temporal.PlainDate.compare(Temporal.PlainDate.from(i.serviceDate), previous) >= 0 &&
          Temporal.PlainDate.compare(Temporal.PlainDate.from(i.serviceDate), month) < 0,
      )
      .map((i) => i.id),
  );

  const closed = data.clients
    .filter((c) => c.sessionsClosedOn)
    .map((c) => ({
      id: c.id!,
      at: workdayMorning(berlinDate(new Date(c.sessionsClosedOn!).getTime()).add({ days: 2 })),
      items: due.filter((i) => i.clientId === c.id && i.payerKind === 'client').map((i) => i.id),
    }))
    .filter((c) => c.at <= latest && c.items.length > 0)
    .sort((x, y) => y.at - x.at || x.id.localeCompare(y.id))
    .slice(0, FINAL_INVOICES);
  for (const c of closed) add(c.at, c.items);

  return [...rounds]
    .sort((x, y) => x[0] - y[0])
    .map(([at, itemIds]) => ({ at, itemIds: itemIds.sort() }));
}

/**
 * Moves what a feature call stamped with the transaction's clock (`now()` in SQL: the seed's
 * own moment) to the moment of the history it stands for. Only rows of the named ids stamped
 * after that moment move: an earlier step's rows keep their own times.
 */
async function retimeEvents(tx: Tx, at: number, types: EventType[], entityIds: string[]) {
  if (entityIds.length === 0) return;
  await tx
    .update(events)
    .set({ occurredAt: new Date(at).toISOString() })
    .where(
      and(
        inArray(events.type, types),
        inArray(events.entityId, entityIds),
        sql`${events.occurredAt} > ${new Date(at).toISOString()}::timestamptz`,
      ),
    );
}

async function retimeItems(tx: Tx, at: number, ids: string[]) {
  if (ids.length === 0) return;
  const when = new Date(at).toISOString();
  const stamped = (column: AnyPgColumn) =>
    sql`CASE WHEN ${column} > ${when}::timestamptz THEN ${when}::timestamptz ELSE ${column} END`;
  await tx
    .update(billableItems)
    .set({
      approvedAt: stamped(billableItems.approvedAt),
      invoiceSentAt: stamped(billableItems.invoiceSentAt),
      updatedAt: stamped(billableItems.updatedAt),
    })
    .where(inArray(billableItems.id, ids));
}

/** Items of an invoice (its links, live or not). */
async function itemsOf(tx: Tx, invoiceIds: string[]) {
  if (invoiceIds.length === 0) return [];
  const links = await tx
    .select({ id: invoiceItems.billableItemId })
    .from(invoiceItems)
    .where(inArray(invoiceItems.invoiceId, invoiceIds));
  return links.map((l) => l.id);
}

/**
 * The item job made the items at the seed moment; in the running app it makes each a minute
 * after the appointment ended (no-shows once marked, late cancellations when cancelled).
 */
async function retimeItemCreation(tx: Tx, now: Date) {
  await tx.execute(sql`
    UPDATE billable_items i SET
      created_at = LEAST(${now.toISOString()}::timestamptz,
        CASE i.occasion
          WHEN 'no_show' THEN a.end_date + interval '31 minutes'
          WHEN 'cancelled_late' THEN a.cancelled_at + interval '1 minute'
          ELSE a.end_date + interval '1 minute' END),
      updated_at = LEAST(${now.toISOString()}::timestamptz,
        CASE i.occasion
          WHEN 'no_show' THEN a.end_date + interval '31 minutes'
          WHEN 'cancelled_late' THEN a.cancelled_at + interval '1 minute'
          ELSE a.end_date + interval '1 minute' END)
    FROM appointments a WHERE a.id = i.appointment_id`);
  await tx.execute(sql`
    UPDATE events e SET occurred_at = i.created_at FROM billable_items i
     WHERE e.type = 'billable_item.created' AND e.entity_id = i.id`);
}

// The invoice mails are part of the history: written by the send as in the app, and marked
// sent at the moment they went out. No job is queued for them, so starting the demo sends none.
const NO_DELIVERY = {
  send: async () => 'seed',
} as unknown as JobQueue;

/**
 * The practice's billing so far, through the billing and invoice features' own calls: each
 * round approves its items and issues one invoice per payer; the invoices are sent by e-mail
 * half an hour later (to the payer's address on the invoice), except the latest round's. The
 * first client invoice that could be was cancelled two days after it was sent (a cancellation
 * invoice, sent as well) and issued and sent again.
 */
export async function billingHistory(
  tx: Tx,
  data: DemoData,
  now: Date,
  config: Config,
): Promise<{ approved: number; invoices: number; sent: number; cancelled: number }> {
  const db = tx as unknown as Db;
  const nowMs = now.getTime();
  const admin = actingAs(data.users.find((u) => u.role === 'ADMIN')!);
  const adminId = admin.user!.id;
  const practice = await practiceFor(tx, config);
  await retimeItemCreation(tx, now);

  const items = await tx
    .select({
      id: billableItems.id,
      clientId: billableItems.clientId,
      payerKind: billableItems.payerKind,
      status: billableItems.status,
      serviceDate: billableItems.serviceDate,
      createdAt: billableItems.createdAt,
    })
    .from(billableItems);
  const rounds = planBillingRounds(data, items, now);
  const tally = { approved: 0, invoices: 0, sent: 0, cancelled: 0 };

  const issue = async (at: number, itemIds: string[]) => {
    const { invoices: issued } = await runInvoices(db, adminId, config, new Date(at), {
      itemIds,
    });
    const ids = issued.map((i) => i.id);
    await tx
      .update(invoices)
      .set({ createdAt: new Date(at).toISOString() })
      .where(inArray(invoices.id, ids));
    await retimeEvents(tx, at, ['invoice.issued'], ids);
    tally.invoices += ids.length;
    return issued;
  };
  const send = async (at: number, invoice: typeof invoices.$inferSelect) => {
    // A payer without an e-mail address gets the invoice by post: it stays "issued" here.
    if (!invoice.recipient.email || at > nowMs - MINUTE) return false;
    await sendInvoice(
      db,
      admin,
      { jobs: NO_DELIVERY, practice },
      new Date(at),
      invoice.id,
      undefined,
    );
    const itemIds = await itemsOf(tx, [invoice.id]);
    await retimeEvents(tx, at, ['invoice.sent'], [invoice.id]);
    await retimeEvents(tx, at, ['billable_item.invoice_sent'], itemIds);
    await retimeItems(tx, at, itemIds);
    const when = new Date(at).toISOString();
    await tx
      .update(communications)
      .set({ status: 'sent', sentAt: when, attempts: 1, createdAt: when, updatedAt: when })
      .where(
        and(
          eq(communications.template, 'invoice'),
          eq(communications.subject, mailSubject(invoice)),
        ),
      );
    tally.sent++;
    return true;
  };

  // The cancellation waits for its moment: invoice numbers rise with the invoice dates.
  let stornoDue: { at: number; invoice: typeof invoices.$inferSelect } | null = null;
  let stornoDone = false;
  for (const [index, round] of rounds.entries()) {
    if (stornoDue && stornoDue.at <= round.at) {
      await storno(stornoDue.at, stornoDue.invoice);
      stornoDue = null;
    }
    const approved = await applyAction(db, admin, 'approve', round.itemIds);
    await retimeEvents(tx, round.at, ['billable_item.approved'], round.itemIds);
    await retimeItems(tx, round.at, round.itemIds);
    tally.approved += approved.length;
    const issued = await issue(round.at + 5 * MINUTE, round.itemIds);
    // The latest round's invoices are not sent yet: the admin checks them first.
    if (index === rounds.length - 1) continue;
    for (const invoice of issued) {
      const sentAt = round.at + 30 * MINUTE;
      if (!(await send(sentAt, invoice))) continue;
      const cancelAt = sentAt + 2 * DAY;
      if (stornoDone || invoice.payerKind !== 'client' || cancelAt > nowMs - 2 * 60 * MINUTE)
        continue;
      stornoDone = true;
      stornoDue = { at: cancelAt, invoice };
    }
  }
  if (stornoDue) await storno(stornoDue.at, stornoDue.invoice);
  return tally;

  async function storno(at: number, invoice: typeof invoices.$inferSelect) {
    const itemIds = await itemsOf(tx, [invoice.id]);
    const cancellation = await cancelInvoice(
      db,
      admin,
      config,
      new Date(at),
      invoice.id,
      STORNO_REASON,
    );
    await tx
      .update(invoices)
      .set({ createdAt: new Date(at).toISOString() })
      .where(eq(invoices.id, cancellation.id));
    await retimeEvents(tx, at, ['invoice.cancelled'], [invoice.id]);
    await retimeEvents(tx, at, ['billable_item.invoice_cancelled'], itemIds);
    await retimeItems(tx, at, itemIds);
    tally.invoices++;
    tally.cancelled++;
    await send(at + 5 * MINUTE, cancellation);
    const [again] = await issue(at + 10 * MINUTE, itemIds);
    if (again) await send(at + 15 * MINUTE, again);
  }
}

const mailSubject = (invoice: typeof invoices.$inferSelect) =>
  `${invoice.kind === 'cancellation' ? 'Stornorechnung' : 'Rechnung'} ${invoice.number}`;
