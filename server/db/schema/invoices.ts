import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  BILLING_PAYER_KINDS,
  INVOICE_KINDS,
  INVOICE_STATUSES,
} from '../../../shared/contract/enums';
import type { components } from '../../../shared/contract/product';
import { communications } from './communications';
import { createdAt, inList, ownedBy, ts, uuidId } from './columns';
import { users } from './core';
import { billableItems } from './billable-items';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export type InvoiceRecipient = components['schemas']['InvoiceRecipient'];
export type InvoiceLine = components['schemas']['InvoiceLine'];
export type InvoiceVatGroup = components['schemas']['InvoiceVatGroup'];

/**
 * The last number issued per year. The invoice run locks its year's row (FOR UPDATE) in its
 * transaction, so concurrent runs queue and a rolled-back run gives its numbers back: the
 * numbers are gapless and never reused (§ 14 Abs. 4 Nr. 4 UStG).
 */
export const invoiceNumberCounters = pgTable(
  'invoice_number_counters',
  {
    year: integer('year').primaryKey(),
    lastNumber: integer('last_number').notNull().default(0),
  },
  (t) => [check('invoice_number_counters_last_check', sql`${t.lastNumber} >= 0`)],
);

/**
 * An issued invoice or cancellation invoice (Storno). What § 14 UStG asks for is copied in at
 * issue (recipient, lines, VAT groups) and the PDF and XML are kept as issued, so later edits of
 * clients, rules or the practice's configuration never change an invoice.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuidId(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    number: text('number').notNull(),
    kind: text('kind', { enum: INVOICE_KINDS }).notNull().default('invoice'),
    status: text('status', { enum: INVOICE_STATUSES }).notNull().default('issued'),
    payerKind: text('payer_kind', { enum: BILLING_PAYER_KINDS }).notNull(),
    /** Grouping key of the run: one live invoice per payer and run. */
    payerKey: text('payer_key').notNull(),
    recipient: jsonb('recipient').$type<InvoiceRecipient>().notNull(),
    invoiceDate: date('invoice_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    serviceFrom: date('service_from', { mode: 'string' }).notNull(),
    serviceTo: date('service_to', { mode: 'string' }).notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    vatGroups: jsonb('vat_groups').$type<InvoiceVatGroup[]>().notNull(),
    netCents: integer('net_cents').notNull(),
    vatCents: integer('vat_cents').notNull(),
    grossCents: integer('gross_cents').notNull(),
    pdf: bytea('pdf').notNull(),
    xml: text('xml'),
    cancelsInvoiceId: uuid('cancels_invoice_id'),
    cancellationReason: text('cancellation_reason'),
    sentAt: ts('sent_at'),
    sentTo: text('sent_to'),
    cancelledAt: ts('cancelled_at'),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invoices_number_key').on(t.number),
    uniqueIndex('invoices_year_sequence_key').on(t.year, t.sequence),
    uniqueIndex('invoices_cancels_key').on(t.cancelsInvoiceId),
    index('invoices_list_idx').on(t.year.desc(), t.sequence.desc()),
    index('invoices_date_idx').on(t.invoiceDate),
    check('invoices_kind_check', sql`${t.kind} IN ${inList(INVOICE_KINDS)}`),
    check('invoices_status_check', sql`${t.status} IN ${inList(INVOICE_STATUSES)}`),
    check('invoices_payer_check', sql`${t.payerKind} IN ${inList(BILLING_PAYER_KINDS)}`),
    check('invoices_sequence_check', sql`${t.sequence} >= 1`),
    check(
      'invoices_cancellation_check',
      sql`(${t.kind} = 'cancellation') = (${t.cancelsInvoiceId} IS NOT NULL)`,
    ),
    check('invoices_sent_check', sql`${t.status} <> 'sent' OR ${t.sentAt} IS NOT NULL`),
    check(
      'invoices_cancelled_check',
      sql`${t.status} <> 'cancelled' OR ${t.cancelledAt} IS NOT NULL`,
    ),
    check('invoices_totals_check', sql`${t.netCents} + ${t.vatCents} = ${t.grossCents}`),
  ],
);

/**
 * Which items an invoice bills. `live` turns false when the invoice is cancelled; an item is
 * on at most one live invoice (the partial unique index), so two runs cannot bill it twice.
 */
export const invoiceItems = pgTable(
  'invoice_items',
  {
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    billableItemId: uuid('billable_item_id')
      .notNull()
      // An item deleted later (allowed only after its invoice was cancelled and it was
      // cancelled itself) leaves the invoice's copied line; the link goes with it.
      .references(() => billableItems.id, { onDelete: 'cascade' }),
    live: boolean('live').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.invoiceId, t.billableItemId] }),
    uniqueIndex('invoice_items_live_item_key')
      .on(t.billableItemId)
      .where(sql`${t.live}`),
  ],
);

/** Files sent with a queued e-mail (an invoice's PDF and XML); the delivery job attaches them. */
export const communicationAttachments = pgTable(
  'communication_attachments',
  {
    id: uuidId(),
    communicationId: ownedBy('communication_id', () => communications.id),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    content: bytea('content').notNull(),
  },
  (t) => [index('communication_attachments_communication_idx').on(t.communicationId)],
);

export const INVOICE_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

/**
 * A large invoice run done by the background job (POST /invoices/runs answers 202 with its id):
 * what it was asked, how far it is (invoices issued of those due when it was queued) and the
 * invoices it issued. Small runs are answered at once and leave no row here.
 */
export const invoiceRuns = pgTable(
  'invoice_runs',
  {
    id: uuidId(),
    status: text('status', { enum: INVOICE_RUN_STATUSES }).notNull().default('queued'),
    request: jsonb('request')
      .$type<{ itemIds?: string[]; fromDate?: string; toDate?: string }>()
      .notNull(),
    /** Payers (= invoices) and items due when the run was queued. */
    payerCount: integer('payer_count').notNull(),
    dueItemCount: integer('due_item_count').notNull(),
    /** Items and invoices issued so far. */
    itemCount: integer('item_count').notNull().default(0),
    invoiceIds: jsonb('invoice_ids').$type<string[]>().notNull().default([]),
    error: text('error'),
    requestedById: uuid('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: ts('finished_at'),
  },
  (t) => [check('invoice_runs_status_check', sql`${t.status} IN ${inList(INVOICE_RUN_STATUSES)}`)],
);
