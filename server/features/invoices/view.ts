import type { components } from '../../../shared/contract/product';
import type { InvoiceRow } from './issue';

type Summary = components['schemas']['InvoiceSummary'];
type Full = components['schemas']['Invoice'];

export function toSummary(
  row: Omit<InvoiceRow, 'pdf' | 'xml'> & { hasXml: boolean },
  cancelledBy: string | null,
): Summary {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    status: row.status,
    payerKind: row.payerKind,
    recipientName: row.recipient.name,
    invoiceDate: row.invoiceDate,
    serviceFrom: row.serviceFrom,
    serviceTo: row.serviceTo,
    netCents: row.netCents,
    vatCents: row.vatCents,
    grossCents: row.grossCents,
    lineCount: row.lines.length,
    hasXRechnung: row.hasXml,
    cancelsInvoiceId: row.cancelsInvoiceId,
    cancelledByInvoiceId: cancelledBy,
    sentAt: row.sentAt,
    sentTo: row.sentTo,
    cancelledAt: row.cancelledAt,
    createdAt: row.createdAt,
  };
}

export function toInvoice(
  row: Omit<InvoiceRow, 'pdf' | 'xml'> & { hasXml: boolean },
  cancelledBy: string | null,
): Full {
  return {
    ...toSummary(row, cancelledBy),
    recipient: row.recipient,
    lines: row.lines,
    vatGroups: row.vatGroups,
    cancellationReason: row.cancellationReason,
  };
}
