import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  billableItems,
  billingDismissedAppointments,
  clients,
  events,
  invoiceItems,
} from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { batchOffenders, batchRefused, type BatchOffender } from '../../http/batch';
import { HttpProblem, notFound } from '../../http/problem';
import {
  BILLING_TRANSITIONS,
  canApplyBillingAction,
  type BillingAction,
} from '../../../shared/billing-transitions';
import { inTransaction } from '../../db/transaction';
import { billableItemData, emitWebhooks, type WebhookType } from '../webhooks/index';
import type { JobQueue } from '../../jobs/queue';
import { itemScope } from './list';
import { validationErrorsFor } from './matching';
import type { EventType } from '../../../shared/contract/enums';

type ItemRow = typeof billableItems.$inferSelect;

const EVENT_TYPES: Record<BillingAction, EventType> = {
  approve: 'billable_item.approved',
  cancel: 'billable_item.cancelled',
  uncancel: 'billable_item.uncancelled',
  markInvoiceSent: 'billable_item.invoice_sent',
  removeValidation: 'billable_item.validation_removed',
  delete: 'billable_item.deleted',
};

/** The actions a webhook announces. */
const WEBHOOK_TYPES: Partial<Record<BillingAction, WebhookType>> = {
  approve: 'billable_item.approved',
  markInvoiceSent: 'billable_item.invoice_sent',
};

/**
 * Applies `action` to every id, all or nothing. The items are locked in id order (two
 * overlapping batches wait for each other instead of deadlocking) and checked after the
 * lock: the later batch sees the first one's result, so each transition happens, and is
 * recorded, once. Any unknown, out-of-reach or not-allowed id refuses the whole batch.
 */
export async function applyAction(
  db: Db,
  principal: Principal,
  action: BillingAction,
  ids: string[],
  jobs?: JobQueue,
): Promise<ItemRow[]> {
  return inTransaction(db, async (tx) => {
    const rows = await tx
      .select()
      .from(billableItems)
      .where(and(inArray(billableItems.id, ids), itemScope(principal)))
      .orderBy(asc(billableItems.id))
      .for('update');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const offenders = batchOffenders(
      ids,
      byId,
      (row) => canApplyBillingAction(action, row.status),
      {
        notFound: 'No billable item with this id in your reach',
        notAllowed: (row) => `${action} is not allowed on an item in status ${row.status}`,
      },
    );
    if (action === 'uncancel' && offenders.length === 0)
      offenders.push(...(await liveClashes(tx, ids, rows)));
    if (action === 'cancel' && offenders.length === 0)
      offenders.push(...(await onLiveInvoice(tx, ids)));
    if (offenders.length) {
      throw batchRefused(
        `${offenders.length} of ${ids.length} items refuse ${action}; nothing changed`,
        offenders,
      );
    }
    const after = await transition(tx, principal, action, rows);
    await tx.insert(events).values(
      rows.map((before) => {
        const next = after.find((a) => a.id === before.id);
        return {
          type: EVENT_TYPES[action],
          entityType: 'billable_item',
          entityId: before.id,
          actorUserId: principal.user?.id ?? null,
          appointmentId: before.appointmentId,
          clientId: before.clientId,
          coachId: before.coachId,
          source: 'business' as const,
          important: true,
          changes: {
            status: { from: before.status, to: next?.status ?? null },
            ...(action === 'removeValidation' ? { validationErrors: before.validationErrors } : {}),
            ...(action === 'delete'
              ? {
                  amountCents: before.amountCents,
                  description: before.description,
                  serviceDate: before.serviceDate,
                }
              : {}),
          },
        };
      }),
    );
    const webhookType = WEBHOOK_TYPES[action];
    if (jobs && webhookType) {
      await emitWebhooks(tx, jobs, webhookType, after.map(billableItemData));
    }
    return after;
  });
}

/** An item on an invoice that is not cancelled is corrected by a Storno, not by cancelling it. */
async function onLiveInvoice(tx: Tx, ids: string[]): Promise<BatchOffender[]> {
  const rows = await tx
    .select({ id: invoiceItems.billableItemId })
    .from(invoiceItems)
    .where(and(inArray(invoiceItems.billableItemId, ids), eq(invoiceItems.live, true)));
  const invoiced = new Set(rows.map((r) => r.id));
  return ids.flatMap((id, index) =>
    invoiced.has(id)
      ? [
          {
            field: `ids.${index}`,
            id,
            status: 'approved',
            code: 'on_invoice',
            message: 'The item is on an invoice; cancel the invoice instead',
          },
        ]
      : [],
  );
}

/** Uncancelling must not make a second live item for an appointment. */
async function liveClashes(tx: Tx, ids: string[], rows: ItemRow[]): Promise<BatchOffender[]> {
  const appointmentIds = rows.map((r) => r.appointmentId);
  const live = await tx
    .select({ appointmentId: billableItems.appointmentId })
    .from(billableItems)
    .where(
      and(
        inArray(billableItems.appointmentId, appointmentIds),
        ne(billableItems.status, 'cancelled'),
      ),
    );
  const taken = new Set(live.map((l) => l.appointmentId));
  const offenders: BatchOffender[] = [];
  ids.forEach((id, index) => {
    const row = rows.find((r) => r.id === id)!;
    if (taken.has(row.appointmentId)) {
      offenders.push({
        field: `ids.${index}`,
        id,
        status: row.status,
        code: 'live_item_exists',
        message: 'The appointment has another item that is not cancelled',
      });
    }
    taken.add(row.appointmentId);
  });
  return offenders;
}

async function transition(tx: Tx, principal: Principal, action: BillingAction, rows: ItemRow[]) {
  const ids = rows.map((r) => r.id);
  const where = inArray(billableItems.id, ids);
  const to = BILLING_TRANSITIONS[action].to;
  switch (action) {
    case 'approve':
      return tx
        .update(billableItems)
        .set({
          status: 'approved',
          approvedAt: sql`now()`,
          approvedById: principal.user?.id ?? null,
          updatedAt: sql`now()`,
        })
        .where(where)
        .returning();
    case 'cancel':
      return tx
        .update(billableItems)
        .set({
          status: 'cancelled',
          cancelledAt: sql`now()`,
          cancelledBySystem: false,
          updatedAt: sql`now()`,
        })
        .where(where)
        .returning();
    case 'markInvoiceSent':
      return tx
        .update(billableItems)
        .set({ status: 'invoice_sent', invoiceSentAt: sql`now()`, updatedAt: sql`now()` })
        .where(where)
        .returning();
    case 'removeValidation':
      return tx
        .update(billableItems)
        .set({ status: 'pending', validationErrors: [], updatedAt: sql`now()` })
        .where(where)
        .returning();
    case 'uncancel':
      return uncancel(tx, rows);
    case 'delete': {
      // Deleted on purpose: the item job does not make the item again.
      await tx
        .insert(billingDismissedAppointments)
        .values(
          rows.map((r) => ({
            appointmentId: r.appointmentId,
            dismissedById: principal.user?.id ?? null,
          })),
        )
        .onConflictDoNothing();
      await tx.delete(billableItems).where(where);
      return [];
    }
    default:
      throw new Error(`No transition to ${String(to)}`);
  }
}

/** Back to pending, the checks run again on today's client data (the rule snapshot stays). */
async function uncancel(tx: Tx, rows: ItemRow[]) {
  const data = await tx
    .select()
    .from(clients)
    .where(inArray(clients.id, [...new Set(rows.map((r) => r.clientId))]));
  const out: ItemRow[] = [];
  for (const row of rows) {
    const client = data.find((c) => c.id === row.clientId)!;
    const errors = validationErrorsFor(
      client,
      row.billingRuleVersion === null ? null : row.payerKind,
    );
    const [updated] = await tx
      .update(billableItems)
      .set({
        status: errors.length ? 'validation_failed' : 'pending',
        validationErrors: errors,
        cancelledAt: null,
        cancelledBySystem: false,
        updatedAt: sql`now()`,
      })
      .where(eq(billableItems.id, row.id))
      .returning();
    out.push(updated!);
  }
  return out;
}

/** A single-item action: 404 for an unknown (or out-of-reach) id, 409 when not allowed. */
export async function applyToOne(
  db: Db,
  principal: Principal,
  action: BillingAction,
  id: string,
  jobs?: JobQueue,
) {
  try {
    await applyAction(db, principal, action, [id], jobs);
  } catch (error) {
    if (error instanceof HttpProblem && error.errors?.[0]?.code === 'not_found')
      throw notFound('billable item');
    if (error instanceof HttpProblem && error.code === 'batch_refused') {
      throw new HttpProblem(409, 'invalid_transition', 'Conflict', error.detail, error.errors);
    }
    throw error;
  }
}
