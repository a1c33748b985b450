import { type ReactNode, useId } from 'react';
import { tKey } from '../../i18n/keys';
import type { InvoiceSummary } from '../../machines/actors/staff/invoices';
import { ModalDialog } from '../parts/ModalDialog';
import { errorKey } from '../staff/ListParts';

/** Labels and small parts the invoice pages share. */

export const INVOICE_STATUS_LABELS: Record<InvoiceSummary['status'], string> = {
  issued: tKey('invoices:statuses.issued'),
  sent: tKey('invoices:statuses.sent'),
  cancelled: tKey('invoices:statuses.cancelled'),
};

export const INVOICE_KIND_LABELS: Record<InvoiceSummary['kind'], string> = {
  invoice: tKey('invoices:kinds.invoice'),
  cancellation: tKey('invoices:kinds.cancellation'),
};

/** The invoice calls' own problem codes in German; everything else as on the other staff screens. */
const INVOICE_ERRORS: Record<string, string> = {
  invoice_cancelled: tKey('invoices:errors.invoice_cancelled'),
  invalid_transition: tKey('invoices:errors.invalid_transition'),
  batch_refused: tKey('invoices:errors.batch_refused'),
  not_found: tKey('invoices:errors.not_found'),
  validation_failed: tKey('invoices:errors.validation_failed'),
  idempotency_key_in_progress: tKey('invoices:errors.idempotency_key_in_progress'),
  seller_identifier_missing: tKey('invoices:errors.seller_identifier_missing'),
  payer_address_missing: tKey('invoices:errors.payer_address_missing'),
};

export const invoiceErrorKey = (error: { code: string } | null | undefined): string =>
  INVOICE_ERRORS[error?.code ?? ''] ?? errorKey(error);

/**
 * A modal `<dialog>` opened and closed by the machine's state (`open`); Escape asks `onClose`
 * unless something is under way.
 */
export function Modal({
  open,
  title,
  busy,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  busy: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <ModalDialog
      open={open}
      className="batch-dialog"
      labelledBy={`${id}-title`}
      busy={busy}
      onCancel={() => {
        if (!busy) onClose();
      }}
    >
      {open ? (
        <>
          <h2 id={`${id}-title`}>{title}</h2>
          {children}
        </>
      ) : null}
    </ModalDialog>
  );
}

/** "Wird … " with the spinner, announced. */
export function Progress({ text }: { text: string }) {
  return (
    <p className="list-progress" role="status">
      <span className="spinner" aria-hidden="true" />
      {text}
    </p>
  );
}
