import { Link } from 'wouter';
import { tKey } from '../../i18n/keys';
import type { InvoiceSummary } from '../../machines/actors/staff/invoices';
import { PAYER_LABELS } from '../billing/columns';
import type { Column } from '../staff/DataTable';
import { formatDate, formatEuro } from '../staff/format';
import { INVOICE_KIND_LABELS, INVOICE_STATUS_LABELS } from './parts';

export const invoiceHref = (id: string) => `/billing/invoices/${id}`;

/**
 * The columns of `/billing/invoices`. `numberOf` names another invoice on the page (a Storno's
 * original, a cancelled invoice's Storno) where it is there; the link works either way.
 */
export function invoiceColumns(
  numberOf: (id: string) => string | undefined,
): readonly Column<InvoiceSummary>[] {
  return [
    {
      header: tKey('invoices:columns.number'),
      width: 'narrow',
      cell: (row, t) => (
        <>
          <Link href={invoiceHref(row.id)}>{row.number}</Link>
          {row.kind === 'cancellation' ? (
            <>
              <br />
              <span className="field-hint">{t(INVOICE_KIND_LABELS.cancellation)}</span>
            </>
          ) : null}
        </>
      ),
    },
    {
      header: tKey('invoices:columns.date'),
      width: 'narrow',
      cell: (row) => formatDate(row.invoiceDate),
    },
    { header: tKey('invoices:columns.recipient'), width: 'wide', cell: (row) => row.recipientName },
    { header: tKey('invoices:columns.payer'), cell: (row, t) => t(PAYER_LABELS[row.payerKind]) },
    {
      header: tKey('invoices:columns.gross'),
      width: 'narrow',
      cell: (row) => formatEuro(row.grossCents),
    },
    {
      header: tKey('invoices:columns.status'),
      cell: (row, t) => {
        const other = row.cancelsInvoiceId ?? row.cancelledByInvoiceId;
        const number = other ? numberOf(other) : undefined;
        return (
          <>
            <span className={`invoice-status invoice-status-${row.status}`}>
              {t(INVOICE_STATUS_LABELS[row.status])}
            </span>
            {row.cancelsInvoiceId ? (
              <>
                <br />
                <Link href={invoiceHref(row.cancelsInvoiceId)}>
                  {number ? t('invoices:stornoOf', { number }) : t('invoices:stornoOfOriginal')}
                </Link>
              </>
            ) : null}
            {row.cancelledByInvoiceId ? (
              <>
                <br />
                <Link href={invoiceHref(row.cancelledByInvoiceId)}>
                  {number ? t('invoices:cancelledBy', { number }) : t('invoices:cancelledByStorno')}
                </Link>
              </>
            ) : null}
          </>
        );
      },
    },
  ];
}
