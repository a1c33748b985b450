import { Temporal } from '@js-temporal/polyfill';
import type { Tx } from '../../db/client';
import { invoices } from '../../db/schema/index';
import type { InvoiceDocument, Practice } from './document';
import { renderInvoicePdf } from './pdf';
import { renderXRechnung } from './xrechnung';

export type InvoiceRow = typeof invoices.$inferSelect;

/** Today in Berlin, and the due date `days` later (ISO dates). */
export function invoiceDates(now: Date, days: number) {
  const today = Temporal.Instant.fromEpochMilliseconds(now.getTime())
    .toZonedDateTimeISO('Europe/Berlin')
    .toPlainDate();
  return {
    invoiceDate: today.toString(),
    dueDate: today.add({ days }).toString(),
    year: today.year,
  };
}

/**
 * XRechnung for every payer but a private client, once what XRechnung requires of the buyer is
 * known: the electronic address (BT-49), postal code and city (BR-DE-8, BR-DE-9). The address
 * and invoice e-mail come from the insurer or campaign, so this is at issue; an invoice issued
 * before they were recorded gets it at its first send (with the send form's address).
 */
export const wantsXRechnung = (
  payerKind: InvoiceRow['payerKind'],
  recipient: Pick<InvoiceRow['recipient'], 'email' | 'postalCode' | 'city'>,
) => payerKind !== 'client' && !!recipient.email && !!recipient.postalCode && !!recipient.city;

/** The document an invoice row was issued from (to render its XRechnung later). */
export function documentOf(
  row: InvoiceRow,
  cancels: Pick<InvoiceRow, 'number' | 'invoiceDate'> | null,
): InvoiceDocument {
  return {
    number: row.number,
    kind: row.kind,
    invoiceDate: row.invoiceDate,
    dueDate: row.dueDate,
    serviceFrom: row.serviceFrom,
    serviceTo: row.serviceTo,
    recipient: row.recipient,
    lines: row.lines,
    vatGroups: row.vatGroups,
    netCents: row.netCents,
    vatCents: row.vatCents,
    grossCents: row.grossCents,
    cancels: cancels ? { number: cancels.number, invoiceDate: cancels.invoiceDate } : null,
    cancellationReason: row.cancellationReason,
  };
}

/** Renders the documents and stores the invoice. */
export async function storeInvoice(
  tx: Tx,
  input: {
    doc: InvoiceDocument;
    practice: Practice;
    year: number;
    sequence: number;
    payerKind: InvoiceRow['payerKind'];
    payerKey: string;
    cancelsInvoiceId: string | null;
    createdById: string | null;
  },
): Promise<InvoiceRow> {
  const { doc, practice } = input;
  const [pdf, xml] = await Promise.all([
    renderInvoicePdf(doc, practice),
    wantsXRechnung(input.payerKind, doc.recipient)
      ? renderXRechnung(doc, practice)
      : Promise.resolve(null),
  ]);
  const [row] = await tx
    .insert(invoices)
    .values({
      year: input.year,
      sequence: input.sequence,
      number: doc.number,
      kind: doc.kind,
      payerKind: input.payerKind,
      payerKey: input.payerKey,
      recipient: doc.recipient,
      invoiceDate: doc.invoiceDate,
      dueDate: doc.dueDate,
      serviceFrom: doc.serviceFrom,
      serviceTo: doc.serviceTo,
      lines: doc.lines,
      vatGroups: doc.vatGroups,
      netCents: doc.netCents,
      vatCents: doc.vatCents,
      grossCents: doc.grossCents,
      pdf,
      xml,
      cancelsInvoiceId: input.cancelsInvoiceId,
      cancellationReason: doc.cancellationReason,
      createdById: input.createdById,
    })
    .returning();
  return row!;
}
