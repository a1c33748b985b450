import { tKey } from '../../i18n/keys';
import type { BillableItem } from '../../machines/actors/staff/billing';
import type { BillingAction } from '../../../shared/billing-transitions';
import type { Column } from '../staff/DataTable';
import { formatDate, formatEuro } from '../staff/format';

/** Labels and columns of the /billing table. */

type Status = BillableItem['status'];

export const STATUS_LABELS: Record<Status, string> = {
  pending: tKey('staff:billingItems.statuses.pending'),
  validation_failed: tKey('staff:billingItems.statuses.validation_failed'),
  approved: tKey('staff:billingItems.statuses.approved'),
  invoice_sent: tKey('staff:billingItems.statuses.invoice_sent'),
  cancelled: tKey('staff:billingItems.statuses.cancelled'),
};

export const PAYER_LABELS: Record<BillableItem['payerKind'], string> = {
  client: tKey('staff:billingItems.payers.client'),
  sponsor: tKey('staff:billingItems.payers.sponsor'),
  statutory_insurer: tKey('staff:billingItems.payers.statutory_insurer'),
  private_insurer: tKey('staff:billingItems.payers.private_insurer'),
};

const OCCASION_LABELS: Record<BillableItem['occasion'], string> = {
  completed: tKey('staff:billingItems.occasions.completed'),
  no_show: tKey('staff:billingItems.occasions.no_show'),
  cancelled_late: tKey('staff:billingItems.occasions.cancelled_late'),
};

export const ACTION_LABELS: Record<BillingAction, string> = {
  approve: tKey('staff:billingItems.actions.approve'),
  cancel: tKey('staff:billingItems.actions.cancel'),
  uncancel: tKey('staff:billingItems.actions.uncancel'),
  markInvoiceSent: tKey('staff:billingItems.actions.markInvoiceSent'),
  removeValidation: tKey('staff:billingItems.actions.removeValidation'),
  delete: tKey('staff:billingItems.actions.delete'),
};

/** The result line per action ("42 Positionen freigegeben"), with plural forms. */
export const DONE_LABELS: Record<BillingAction, string> = {
  approve: tKey('staff:billingItems.done.approve'),
  cancel: tKey('staff:billingItems.done.cancel'),
  uncancel: tKey('staff:billingItems.done.uncancel'),
  markInvoiceSent: tKey('staff:billingItems.done.markInvoiceSent'),
  removeValidation: tKey('staff:billingItems.done.removeValidation'),
  delete: tKey('staff:billingItems.done.delete'),
};

export const CONFLICT_REASONS: Record<string, string> = {
  not_found: tKey('staff:billingItems.conflict.reasons.not_found'),
  invalid_transition: tKey('staff:billingItems.conflict.reasons.invalid_transition'),
  live_item_exists: tKey('staff:billingItems.conflict.reasons.live_item_exists'),
};

const ONLY_CLIENT = tKey('staff:billingItems.filters.onlyClient');
const VAT_EXEMPT = tKey('staff:billingItems.vatExempt');
const VAT_STANDARD = tKey('staff:billingItems.vatStandard');

export const personName = (p: { firstName: string; lastName: string }) =>
  `${p.firstName} ${p.lastName}`;

/**
 * The table's columns. `onlyClient` filters the list to one client (the API filters by id, so
 * the client filter is set from a row rather than typed).
 */
export function billingColumns(
  onlyClient: (clientId: string) => void,
): readonly Column<BillableItem>[] {
  return [
    {
      header: tKey('staff:billingItems.columns.serviceDate'),
      width: 'narrow',
      cell: (item) => formatDate(item.serviceDate),
    },
    {
      header: tKey('staff:billingItems.columns.client'),
      primary: true,
      cell: (item, t) => (
        <>
          {personName(item.client)}
          <br />
          <button
            type="button"
            className="link-button"
            aria-label={`${t(ONLY_CLIENT)}: ${personName(item.client)}`}
            onClick={() => onlyClient(item.clientId)}
          >
            {t(ONLY_CLIENT)}
          </button>
        </>
      ),
    },
    { header: tKey('staff:billingItems.columns.coach'), cell: (item) => personName(item.coach) },
    {
      header: tKey('staff:billingItems.columns.service'),
      // No least width: with eight columns at 1440 px the table fits only when this one wraps.
      cell: (item, t) => (
        <>
          {item.description}
          <br />
          <small>{t(OCCASION_LABELS[item.occasion])}</small>
        </>
      ),
    },
    {
      header: tKey('staff:billingItems.columns.payer'),
      // The insurer only where it pays (a self-payer's insurer is no payer).
      cell: (item, t) =>
        item.insurer && item.payerKind.endsWith('_insurer')
          ? `${t(PAYER_LABELS[item.payerKind])}, ${item.insurer}`
          : t(PAYER_LABELS[item.payerKind]),
    },
    {
      header: tKey('staff:billingItems.columns.amount'),
      width: 'narrow',
      cell: (item, t) => (
        <>
          <span className="amount">{formatEuro(item.amountCents)}</span>
          <br />
          <small>
            {item.vatTreatment === 'exempt'
              ? t(VAT_EXEMPT)
              : t(VAT_STANDARD, { rate: item.vatRatePercent })}
          </small>
        </>
      ),
    },
    {
      header: tKey('staff:billingItems.columns.status'),
      cell: (item, t) => (
        <>
          <span className={`status-badge status-${item.status}`}>
            {t(STATUS_LABELS[item.status])}
          </span>
          {item.validationErrors.length > 0 ? (
            <ul className="validation-reasons">
              {item.validationErrors.map((e) => (
                <li key={e.code}>{e.message}</li>
              ))}
            </ul>
          ) : null}
        </>
      ),
    },
  ];
}
