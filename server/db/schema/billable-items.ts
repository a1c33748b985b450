import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  APPOINTMENT_TYPES,
  BILLABLE_ITEM_OCCASIONS,
  BILLABLE_ITEM_STATUSES,
  BILLING_PAYER_KINDS,
  BILLING_VAT_TREATMENTS,
} from '../../../shared/contract/enums';
import { createdAt, inList, ts, updatedAt, uuidId } from './columns';
import { appointments, clients, coaches, users } from './core';
import { billingRules } from './billing-rules';

export type BillableItemValidationError = { code: string; message: string };

// One live (not cancelled) item per appointment. The rule's version, price, VAT and payer are
// copied when the item is made (a snapshot), so editing or deleting the rule changes no item. The appointment foreign key has no cascade:
// erasing a client must delete the client's non-invoiced items first, and invoiced items
// (retention duty) block the erasure.
export const billableItems = pgTable(
  'billable_items',
  {
    id: uuidId(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    coachId: uuid('coach_id')
      .notNull()
      .references(() => coaches.id),
    billingRuleId: uuid('billing_rule_id').references(() => billingRules.id, {
      onDelete: 'set null',
    }),
    billingRuleVersion: integer('billing_rule_version'),
    appointmentType: text('appointment_type', { enum: APPOINTMENT_TYPES }).notNull(),
    occasion: text('occasion', { enum: BILLABLE_ITEM_OCCASIONS }).notNull().default('completed'),
    description: text('description').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    vatTreatment: text('vat_treatment', { enum: BILLING_VAT_TREATMENTS })
      .notNull()
      .default('standard'),
    vatRatePercent: integer('vat_rate_percent').notNull().default(19),
    vatExemptionReason: text('vat_exemption_reason'),
    payerKind: text('payer_kind', { enum: BILLING_PAYER_KINDS }).notNull().default('client'),
    insurer: text('insurer'),
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    status: text('status', { enum: BILLABLE_ITEM_STATUSES }).notNull().default('pending'),
    validationErrors: jsonb('validation_errors')
      .$type<BillableItemValidationError[]>()
      .notNull()
      .default([]),
    approvedAt: ts('approved_at'),
    approvedById: uuid('approved_by_id').references(() => users.id, { onDelete: 'set null' }),
    invoiceSentAt: ts('invoice_sent_at'),
    cancelledAt: ts('cancelled_at'),
    // Cancelled by the item job because its appointment stopped being billable (moved ahead,
    // no-show taken back), not by staff: the job makes a new item when it is billable again.
    cancelledBySystem: boolean('cancelled_by_system').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('billable_items_live_appointment_key')
      .on(t.appointmentId)
      .where(sql`${t.status} <> 'cancelled'`),
    // Each filter's index ends in the list's order (service_date DESC, id DESC), so a page
    // under one filter is an index walk; the job finds an appointment's items by the last.
    // NULLS FIRST is what ORDER BY … DESC means: an index DESC NULLS LAST does not give that
    // order (PostgreSQL does not use NOT NULL to match them) and every page sorted all items.
    index('billable_items_service_date_idx').on(
      t.serviceDate.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('billable_items_status_idx').on(
      t.status,
      t.serviceDate.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // A status tab under a coach, client, payer or insurer filter walks one of these; without a
    // tab the coach's or client's few items are sorted, payer and insurer walk the next two.
    index('billable_items_coach_status_idx').on(
      t.coachId,
      t.status,
      t.serviceDate.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('billable_items_client_status_idx').on(
      t.clientId,
      t.status,
      t.serviceDate.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('billable_items_insurer_status_idx').on(
      t.insurer,
      t.status,
      t.serviceDate.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('billable_items_payer_status_idx').on(
      t.payerKind,
      t.status,
      t.serviceDate.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('billable_items_insurer_idx').on(
      t.insurer,
      t.serviceDate.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('billable_items_payer_idx').on(
      t.payerKind,
      t.serviceDate.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('billable_items_rule_idx').on(t.billingRuleId),
    index('billable_items_appointment_idx').on(t.appointmentId),
    check('billable_items_status_check', sql`${t.status} IN ${inList(BILLABLE_ITEM_STATUSES)}`),
    check('billable_items_currency_check', sql`${t.currency} = 'EUR'`),
    check('billable_items_amount_check', sql`${t.amountCents} BETWEEN 0 AND 100000000`),
    check(
      'billable_items_occasion_check',
      sql`${t.occasion} IN ${inList(BILLABLE_ITEM_OCCASIONS)}`,
    ),
    check('billable_items_payer_check', sql`${t.payerKind} IN ${inList(BILLING_PAYER_KINDS)}`),
    check(
      'billable_items_vat_check',
      sql`(${t.vatTreatment} = 'standard' AND ${t.vatRatePercent} = 19 AND ${t.vatExemptionReason} IS NULL)
        OR (${t.vatTreatment} = 'exempt' AND ${t.vatRatePercent} = 0 AND ${t.vatExemptionReason} IS NOT NULL)`,
    ),
    check('billable_items_type_check', sql`${t.appointmentType} IN ${inList(APPOINTMENT_TYPES)}`),
    check(
      'billable_items_invoice_check',
      sql`${t.status} <> 'invoice_sent' OR ${t.invoiceSentAt} IS NOT NULL`,
    ),
    check(
      'billable_items_cancel_check',
      sql`${t.status} <> 'cancelled' OR ${t.cancelledAt} IS NOT NULL`,
    ),
  ],
);

/**
 * Appointments whose item was deleted on purpose: the item job does not make them again.
 * Erasing the appointment (its client) takes the mark with it.
 */
export const billingDismissedAppointments = pgTable('billing_dismissed_appointments', {
  appointmentId: uuid('appointment_id')
    .primaryKey()
    .references(() => appointments.id, { onDelete: 'cascade' }),
  dismissedById: uuid('dismissed_by_id').references(() => users.id, { onDelete: 'set null' }),
  dismissedAt: createdAt(),
});

/**
 * Count and amount per status over all items, kept by statement triggers on billable_items in
 * the writing transaction (migration 0012), so the unfiltered tabs read one row instead of
 * every item. `generation` rises with every item change: filtered totals remembered under it
 * are exact while a statement still reads the same value (features/billing/totals.ts).
 */
export const billingTotals = pgTable(
  'billing_totals',
  {
    id: integer('id').primaryKey().default(1),
    generation: bigint('generation', { mode: 'number' }).notNull().default(0),
    pendingCount: bigint('pending_count', { mode: 'number' }).notNull().default(0),
    pendingCents: bigint('pending_cents', { mode: 'number' }).notNull().default(0),
    validationFailedCount: bigint('validation_failed_count', { mode: 'number' })
      .notNull()
      .default(0),
    validationFailedCents: bigint('validation_failed_cents', { mode: 'number' })
      .notNull()
      .default(0),
    approvedCount: bigint('approved_count', { mode: 'number' }).notNull().default(0),
    approvedCents: bigint('approved_cents', { mode: 'number' }).notNull().default(0),
    invoiceSentCount: bigint('invoice_sent_count', { mode: 'number' }).notNull().default(0),
    invoiceSentCents: bigint('invoice_sent_cents', { mode: 'number' }).notNull().default(0),
    cancelledCount: bigint('cancelled_count', { mode: 'number' }).notNull().default(0),
    cancelledCents: bigint('cancelled_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('billing_totals_single_row', sql`${t.id} = 1`)],
);

// Each item as the API writes it (the contract's BillableItem JSON, names included), kept by
// triggers (migration 0025) whenever the item or its client's or coach's name changes, so a
// list page is read, not built: PostgreSQL concatenates 25 texts and Node sends them as they
// are. Goes with its item (cascade), so it lives exactly as long as the item it copies.
export const billableItemApi = pgTable('billable_item_api', {
  itemId: uuid('item_id')
    .primaryKey()
    .references(() => billableItems.id, { onDelete: 'cascade' }),
  body: text('body').notNull(),
});
