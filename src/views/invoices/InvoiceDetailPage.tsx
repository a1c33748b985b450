import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { tKey } from '../../i18n/keys';
import { Link, useParams } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { Invoice, invoiceDetailMachine } from '../../machines/invoice-detail.machine';
import { recordOf } from '../../machines/record-detail.machine';
import { wireInvoiceDetail } from '../../machines/wiring/invoices';
import { PAYER_LABELS } from '../billing/columns';
import { DetailFrame, DetailPending } from '../record-detail/DetailFrame';
import { useRouteActor } from '../route-actor';
import { type Column, Table } from '../staff/DataTable';
import { formatDate, formatDateTime, formatEuro } from '../staff/format';
import { invoiceHref } from './columns';
import {
  INVOICE_KIND_LABELS,
  INVOICE_STATUS_LABELS,
  invoiceErrorKey,
  Modal,
  Progress,
} from './parts';
import '../billing/billing.css';
import './invoices.css';

type DetailActor = ActorRefFrom<typeof invoiceDetailMachine>;

/** The documents an invoice can be downloaded as (XRechnung only where it has one). */
const DOCUMENTS = [
  { document: 'pdf', label: tKey('invoices:detail.downloadPdf') },
  { document: 'xrechnung', label: tKey('invoices:detail.downloadXRechnung') },
] as const;

/** `/billing/invoices/:invoiceId` (ADMIN). */
export default function InvoiceDetailPage() {
  const { invoiceId } = useParams<{ invoiceId: string }>();
  return <InvoiceDetail key={invoiceId} id={invoiceId} />;
}

function InvoiceDetail({ id }: { id: string }) {
  const { t } = useTranslation(['invoices', 'staff']);
  const actorRef = useRouteActor(wireInvoiceDetail, { input: { id } });
  const state = useSelector(actorRef, (s) => s);
  const invoice = recordOf<Invoice>(state.context);

  if (!invoice) {
    return (
      <DetailPending
        title={t('breadcrumbs.invoice')}
        state={state}
        retry={() => actorRef.send({ type: 'detail.retry' })}
        backHref="/billing/invoices"
        backLabel={t('detail.back')}
      />
    );
  }

  const kind = t(INVOICE_KIND_LABELS[invoice.kind]);
  const storno = state.context.storno;
  return (
    <DetailFrame
      title={t('detail.title', { kind, number: invoice.number })}
      busy={state.hasTag('loading')}
      progress={t('detail.loading')}
    >
      <p>
        <Link href="/billing/invoices">{t('detail.back')}</Link>
      </p>
      {storno ? (
        <div className="notice" role="status">
          <p>{t('detail.stornoDone', { number: storno.number })}</p>
          <Link href={invoiceHref(storno.id)}>
            {t('detail.stornoLink', { number: storno.number })}
          </Link>
        </div>
      ) : null}
      <Actions actorRef={actorRef} invoice={invoice} />
      <Facts invoice={invoice} />
      <Lines invoice={invoice} />
      <SendDialog actorRef={actorRef} invoice={invoice} />
      <CancelDialog actorRef={actorRef} invoice={invoice} />
    </DetailFrame>
  );
}

function Actions({ actorRef, invoice }: { actorRef: DetailActor; invoice: Invoice }) {
  const { t } = useTranslation(['invoices', 'staff']);
  const state = useSelector(actorRef, (s) => s);
  const downloading = state.hasTag('download') && state.hasTag('busy');
  const downloadFailed = state.hasTag('download') && state.hasTag('actionError');
  return (
    <section aria-label={t('detail.actions')}>
      <div className="page-actions">
        {DOCUMENTS.filter((d) => d.document === 'pdf' || invoice.hasXRechnung).map(
          ({ document, label }) => (
            <button
              key={document}
              type="button"
              className="button"
              disabled={!state.can({ type: 'download.start', document })}
              onClick={() => actorRef.send({ type: 'download.start', document })}
            >
              {t(label)}
            </button>
          ),
        )}
        {invoice.status !== 'cancelled' ? (
          <button
            type="button"
            className="button button-primary"
            disabled={!state.can({ type: 'send.ask' })}
            onClick={() => actorRef.send({ type: 'send.ask' })}
          >
            {invoice.status === 'sent' ? t('detail.sendAgain') : t('detail.send')}
          </button>
        ) : null}
        {invoice.kind === 'invoice' && invoice.status !== 'cancelled' ? (
          <button
            type="button"
            className="button button-danger"
            disabled={!state.can({ type: 'cancel.ask' })}
            onClick={() => actorRef.send({ type: 'cancel.ask' })}
          >
            {t('detail.cancel')}
          </button>
        ) : null}
      </div>
      {downloading ? <Progress text={t('detail.downloading')} /> : null}
      {downloadFailed ? (
        <div className="notice notice-error" role="alert">
          <p>
            {t('detail.downloadFailed')} {t(invoiceErrorKey(state.context.actionError))}
          </p>
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'download.retry' })}
          >
            {t('detail.retry')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'download.dismiss' })}
          >
            {t('detail.close')}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function Facts({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation(['invoices', 'staff']);
  const r = invoice.recipient;
  const address = [r.street, [r.postalCode, r.city].filter(Boolean).join(' ')].filter(Boolean);
  return (
    <>
      {invoice.cancelsInvoiceId ? (
        <p className="notice">
          {t('detail.stornoOf')}{' '}
          <Link href={invoiceHref(invoice.cancelsInvoiceId)}>{t('detail.stornoOfLink')}</Link>
        </p>
      ) : null}
      {invoice.cancelledByInvoiceId ? (
        <p className="notice">
          {t('detail.cancelledBy')}{' '}
          <Link href={invoiceHref(invoice.cancelledByInvoiceId)}>
            {t('detail.cancelledByLink')}
          </Link>
        </p>
      ) : null}
      <dl className="invoice-facts">
        <dt>{t('detail.status')}</dt>
        <dd>
          <span className={`invoice-status invoice-status-${invoice.status}`}>
            {t(INVOICE_STATUS_LABELS[invoice.status])}
          </span>
          {invoice.sentAt ? (
            <>
              {' – '}
              <span>
                {t('detail.sentAt', {
                  date: formatDateTime(invoice.sentAt),
                  email: invoice.sentTo ?? '',
                })}
              </span>
            </>
          ) : null}
          {invoice.cancelledAt ? (
            <>
              {' – '}
              <span>{t('detail.cancelledAt', { date: formatDateTime(invoice.cancelledAt) })}</span>
            </>
          ) : null}
        </dd>
        <dt>{t('detail.invoiceDate')}</dt>
        <dd>{formatDate(invoice.invoiceDate)}</dd>
        <dt>{t('detail.servicePeriod')}</dt>
        <dd>
          {invoice.serviceFrom === invoice.serviceTo
            ? formatDate(invoice.serviceFrom)
            : `${formatDate(invoice.serviceFrom)} – ${formatDate(invoice.serviceTo)}`}
        </dd>
        <dt>{t('detail.payer')}</dt>
        <dd>{t(PAYER_LABELS[invoice.payerKind])}</dd>
        <dt>{t('detail.recipient')}</dt>
        <dd>
          {r.name}
          {address.map((line) => (
            <span key={line}>
              <br />
              {line}
            </span>
          ))}
        </dd>
        {r.reference ? (
          <>
            <dt>{t('detail.reference')}</dt>
            <dd>{r.reference}</dd>
          </>
        ) : null}
        {r.email ? (
          <>
            <dt>{t('detail.email')}</dt>
            <dd>{r.email}</dd>
          </>
        ) : null}
        {invoice.cancellationReason ? (
          <>
            <dt>{t('detail.reason')}</dt>
            <dd>{invoice.cancellationReason}</dd>
          </>
        ) : null}
      </dl>
    </>
  );
}

type Line = Invoice['lines'][number] & { id: string };

/** The invoice's lines; on a phone a card per line, headed by what was provided. */
const lineColumns = (rate: (line: Line) => string): readonly Column<Line>[] => [
  { header: tKey('invoices:detail.line.date'), cell: (line) => formatDate(line.serviceDate) },
  {
    header: tKey('invoices:detail.line.description'),
    primary: true,
    cell: (line) => line.description,
  },
  { header: tKey('invoices:detail.line.vat'), cell: (line) => rate(line) },
  {
    header: tKey('invoices:detail.line.net'),
    numeric: true,
    cell: (line) => formatEuro(line.netCents),
  },
  {
    header: tKey('invoices:detail.line.gross'),
    numeric: true,
    cell: (line) => formatEuro(line.grossCents),
  },
];

interface SumRow {
  id: string;
  label: string;
  netCents: number;
  vatCents: number;
  grossCents: number;
  total?: boolean;
}

/** Sums per VAT rate and the invoice's total (the last row). */
const SUM_COLUMNS: readonly Column<SumRow>[] = [
  { header: tKey('invoices:detail.group.rate'), rowHeader: true, cell: (row) => row.label },
  {
    header: tKey('invoices:detail.group.net'),
    numeric: true,
    cell: (row) => formatEuro(row.netCents),
  },
  {
    header: tKey('invoices:detail.group.vat'),
    numeric: true,
    cell: (row) => formatEuro(row.vatCents),
  },
  {
    header: tKey('invoices:detail.group.gross'),
    numeric: true,
    cell: (row) =>
      row.total ? <strong>{formatEuro(row.grossCents)}</strong> : formatEuro(row.grossCents),
  },
];

function Lines({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation(['invoices', 'staff']);
  const rate = (g: { vatTreatment: string; vatRatePercent: number }) =>
    g.vatTreatment === 'exempt'
      ? t('detail.exempt')
      : t('detail.ratePercent', { rate: g.vatRatePercent });
  const exemptions = [
    ...new Set(invoice.vatGroups.map((g) => g.vatExemptionReason).filter((x): x is string => !!x)),
  ];
  return (
    <>
      <h2>{t('detail.lines')}</h2>
      <Table
        columns={lineColumns(rate)}
        rows={invoice.lines.map((line, index) => ({
          ...line,
          id: `${line.billableItemId}-${index}`,
        }))}
        caption={t('detail.lines')}
      />
      <h2>{t('detail.vatGroups')}</h2>
      <Table
        columns={SUM_COLUMNS}
        rows={[
          ...invoice.vatGroups.map((g) => ({
            id: `${g.vatTreatment}-${g.vatRatePercent}-${g.vatExemptionReason ?? ''}`,
            label: rate(g),
            netCents: g.netCents,
            vatCents: g.vatCents,
            grossCents: g.grossCents,
          })),
          {
            id: 'total',
            label: t('detail.total'),
            netCents: invoice.netCents,
            vatCents: invoice.vatCents,
            grossCents: invoice.grossCents,
            total: true,
          },
        ]}
        caption={t('detail.vatGroups')}
        className="invoice-sums"
      />
      {exemptions.map((text) => (
        <p key={text} className="field-hint">
          {text}
        </p>
      ))}
    </>
  );
}

/**
 * The question of an action (send, Storno) as a modal form: its fields and text, the German
 * reason of a failure, and confirm (retry after a failure) or abort.
 */
function QuestionDialog({
  title,
  open,
  busy,
  failed,
  error,
  confirmLabel,
  runningLabel,
  danger = false,
  confirmDisabled = false,
  onConfirm,
  onAbort,
  children,
}: {
  title: string;
  open: boolean;
  busy: boolean;
  failed: boolean;
  error: { code: string } | null;
  confirmLabel: string;
  runningLabel: string;
  danger?: boolean;
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onAbort: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation(['invoices', 'staff']);
  return (
    <Modal open={open} title={title} busy={busy} onClose={onAbort}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm();
        }}
      >
        {children}
        {failed ? (
          <div className="notice notice-error" role="alert">
            <p>{t(invoiceErrorKey(error))}</p>
          </div>
        ) : null}
        <div className="form-actions">
          <button
            type="submit"
            className={danger ? 'button button-danger' : 'button button-primary'}
            disabled={busy || confirmDisabled}
            aria-busy={busy}
          >
            {busy ? runningLabel : failed ? t('detail.retry') : confirmLabel}
          </button>
          <button type="button" className="button" disabled={busy} onClick={onAbort}>
            {t('detail.abort')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * What the mail carries: a client the PDF; a sponsor or insurer also the XRechnung,
 * made at issue or, when only the e-mail was missing then, at this send; without a postal
 * address the invoice has none, and the dialog says so instead of promising one.
 */
export function whatTheRecipientGets(
  invoice: Pick<Invoice, 'payerKind' | 'hasXRechnung' | 'recipient'>,
): string {
  if (invoice.payerKind === 'client') return tKey('invoices:sendDialog.gets.client');
  if (invoice.hasXRechnung) return tKey('invoices:sendDialog.gets.xrechnung');
  if (invoice.recipient.postalCode && invoice.recipient.city)
    return tKey('invoices:sendDialog.gets.xrechnungAtSend');
  return tKey('invoices:sendDialog.gets.pdfOnly');
}

function SendDialog({ actorRef, invoice }: { actorRef: DetailActor; invoice: Invoice }) {
  const { t } = useTranslation(['invoices', 'staff']);
  const state = useSelector(actorRef, (s) => s);
  const busy = state.hasTag('busy');
  const email = state.context.email;
  const valid = busy || state.can({ type: 'send.confirm' }) || state.can({ type: 'send.retry' });
  const failed = state.hasTag('actionError');
  return (
    <QuestionDialog
      title={t('sendDialog.title')}
      open={state.hasTag('send')}
      busy={busy}
      failed={failed}
      error={state.context.actionError}
      confirmLabel={t('sendDialog.confirm')}
      runningLabel={t('sendDialog.running')}
      confirmDisabled={!valid}
      onConfirm={() => actorRef.send({ type: failed ? 'send.retry' : 'send.confirm' })}
      onAbort={() => actorRef.send({ type: 'send.abort' })}
    >
      <div className="field">
        <label htmlFor="invoice-send-email">{t('sendDialog.email')}</label>
        <input
          id="invoice-send-email"
          type="email"
          autoComplete="off"
          value={email}
          disabled={busy}
          aria-invalid={!valid || undefined}
          aria-describedby={!valid ? 'invoice-send-email-error' : undefined}
          onChange={(e) => actorRef.send({ type: 'send.email', email: e.target.value })}
        />
        {!valid ? (
          <p id="invoice-send-email-error" className="field-error">
            {t('sendDialog.noEmail')}
          </p>
        ) : null}
      </div>
      {valid ? (
        <p>
          <strong>
            {t('sendDialog.question', {
              kind: t(INVOICE_KIND_LABELS[invoice.kind]),
              number: invoice.number,
              email: email.trim(),
            })}
          </strong>
        </p>
      ) : null}
      <p>{t(whatTheRecipientGets(invoice), { name: invoice.recipient.name })}</p>
      <p>{t('sendDialog.explain')}</p>
    </QuestionDialog>
  );
}

function CancelDialog({ actorRef, invoice }: { actorRef: DetailActor; invoice: Invoice }) {
  const { t } = useTranslation(['invoices', 'staff']);
  const state = useSelector(actorRef, (s) => s);
  const busy = state.hasTag('busy');
  const failed = state.hasTag('actionError');
  return (
    <QuestionDialog
      title={t('cancelDialog.title')}
      open={state.hasTag('cancel')}
      busy={busy}
      failed={failed}
      error={state.context.actionError}
      confirmLabel={t('cancelDialog.confirm')}
      runningLabel={t('cancelDialog.running')}
      danger
      onConfirm={() => actorRef.send({ type: failed ? 'cancel.retry' : 'cancel.confirm' })}
      onAbort={() => actorRef.send({ type: 'cancel.abort' })}
    >
      <p>
        <strong>
          {t('cancelDialog.question', {
            kind: t(INVOICE_KIND_LABELS[invoice.kind]),
            number: invoice.number,
            sum: formatEuro(invoice.grossCents),
          })}
        </strong>
      </p>
      <p>{t('cancelDialog.explain')}</p>
      <div className="field">
        <label htmlFor="invoice-cancel-reason">{t('cancelDialog.reason')}</label>
        <textarea
          id="invoice-cancel-reason"
          maxLength={500}
          rows={3}
          value={state.context.reason}
          disabled={busy || failed}
          onChange={(e) => actorRef.send({ type: 'cancel.reason', reason: e.target.value })}
        />
      </div>
    </QuestionDialog>
  );
}
