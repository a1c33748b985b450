import { sql } from 'drizzle-orm';
import {
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
import { APPOINTMENT_TYPES, BILLABLE_ITEM_STATUSES } from '../../../shared/contract/enums';
import { appointments, clients, coaches, createdAt, inList, ts, updatedAt, users } from './core';
import { billingRules } from './billing-rules';

export type BillableItemValidationError = { code: string; message: string };

// One live (not cancelled) item per appointment. The appointment foreign key has no cascade:
// erasing a client must delete the client's non-invoiced items first, and invoiced items
// (retention duty) block the erasure.
export const billableItems = pgTable(
  'billable_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
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
    appointmentType: text('appointment_type', { enum: APPOINTMENT_TYPES }).notNull(),
    description: text('description').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('billable_items_live_appointment_key')
      .on(t.appointmentId)
      .where(sql`${t.status} <> 'cancelled'`),
    index('billable_items_service_date_idx').on(t.serviceDate.desc(), t.id),
    index('billable_items_status_idx').on(t.status, t.serviceDate.desc()),
    index('billable_items_coach_idx').on(t.coachId, t.serviceDate.desc()),
    index('billable_items_client_idx').on(t.clientId, t.serviceDate.desc()),
    index('billable_items_rule_idx').on(t.billingRuleId),
    check('billable_items_status_check', sql`${t.status} IN ${inList(BILLABLE_ITEM_STATUSES)}`),
    check('billable_items_currency_check', sql`${t.currency} = 'EUR'`),
    check('billable_items_amount_check', sql`${t.amountCents} BETWEEN 0 AND 100000000`),
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
