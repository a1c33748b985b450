import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { z } from 'zod';
import { type InvoiceSummary, loadInvoicesPageActor } from '../../machines/actors/staff/invoices';
import type { datevExportMachine } from '../../machines/datev-export.machine';
import type { InvoiceRunPreview, invoiceRunMachine } from '../../machines/invoice-run.machine';
import { tKey } from '../../i18n/keys';
import { isoDate, oneOf, wholeNumber } from '../../machines/list.machine';
import { datevStartRange, wireDatevExport, wireInvoiceRun } from '../../machines/wiring/invoices';
import { BillingSections } from '../billing/BillingSections';
import { useRouteActor } from '../route-actor';
import { StaffListPage } from '../staff/ActionLinks';
import { DataTable } from '../staff/DataTable';
import { FilterForm, FilterInput, FilterSelect } from '../staff/FilterParts';
import { formatEuro, formatNumber } from '../staff/format';
import { useUrlList } from '../staff/useUrlList';
import { invoiceColumns, invoiceHref } from './columns';
import { INVOICE_STATUS_LABELS, invoiceErrorKey, Modal, Progress } from './parts';
import '../billing/billing.css';
import './invoices.css';

/** The filters of `/billing/invoices` as URL keys; `from`/`to` invoice dates, as on `/billing`. */
export const INVOICE_FILTERS = z.object({
  status: oneOf(['issued', 'sent', 'cancelled']),
  year: wholeNumber(2000, 2999),
  from: isoDate,
  to: isoDate,
});
const STATUSES = ['issued', 'sent', 'cancelled'] as const;

/** `/billing/invoices` (ADMIN): the invoices, the invoice run and the DATEV export. */
export default function InvoicesPage() {
  const { t } = useTranslation(['invoices', 'staff']);
  const listRef = useUrlList({
    path: '/billing/invoices',
    filters: INVOICE_FILTERS,
    loadPage: loadInvoicesPageActor,
    defaultLimit: 25,
  });
  const runRef = useRouteActor((effects) =>
    wireInvoiceRun(effects, () => listRef.send({ type: 'list.reload' })),
  );
  const datevRef = useRouteActor(wireDatevExport, { input: datevStartRange() });
  const filters = useSelector(listRef, (s) => s.context.query.filters);
  const rows = useSelector(listRef, (s) => s.context.rows as readonly InvoiceSummary[]);
  const columns = useMemo(() => {
    const numbers = new Map(rows.map((r) => [r.id, r.number]));
    return invoiceColumns((id) => numbers.get(id));
  }, [rows]);

  return (
    <StaffListPage title={t('title')}>
      <BillingSections current="invoices" />
      <div className="invoice-tools">
        <RunPanel actorRef={runRef} />
        <DatevPanel actorRef={datevRef} />
      </div>
      <DataTable
        actorRef={listRef}
        columns={columns}
        label={t('results')}
        emptyText={t('empty')}
        filters={
          <FilterForm actorRef={listRef}>
            <FilterInput name="from" type="date" label={t('filters.from')} value={filters.from} />
            <FilterInput name="to" type="date" label={t('filters.to')} value={filters.to} />
            <FilterInput
              name="year"
              type="number"
              min={2000}
              max={2999}
              label={t('filters.year')}
              value={filters.year}
            />
            <FilterSelect
              name="status"
              label={t('filters.status')}
              value={filters.status}
              options={STATUSES.map((status) => ({
                value: status,
                label: t(INVOICE_STATUS_LABELS[status]),
              }))}
            />
          </FilterForm>
        }
      />
    </StaffListPage>
  );
}

type RunActor = ActorRefFrom<typeof invoiceRunMachine>;

/** "Rechnungslauf starten": the count first, the question, then the invoices issued. */
function RunPanel({ actorRef }: { actorRef: RunActor }) {
  const { t } = useTranslation(['invoices', 'staff']);
  const state = useSelector(actorRef, (s) => s);
  const { preview, result, error, run } = state.context;
  const busy = state.hasTag('busy');
  const abort = () => actorRef.send({ type: 'run.abort' });
  return (
    <section className="invoice-tool" aria-labelledby="invoice-run-title">
      <h2 id="invoice-run-title">{t('run.title')}</h2>
      <p>{t('run.intro')}</p>
      <button
        type="button"
        className="button button-primary"
        disabled={!state.can({ type: 'run.start' })}
        onClick={() => actorRef.send({ type: 'run.start' })}
      >
        {t('run.start')}
      </button>
      {result ? (
        <div className="notice" role="status">
          <p>
            <strong>
              {t('run.done', {
                count: result.invoices.length,
                formatted: formatNumber(result.invoices.length),
              })}
            </strong>
          </p>
          {result.invoices.length ? (
            <ul aria-label={t('run.doneList')}>
              {result.invoices.map((invoice) => (
                <li key={invoice.id}>
                  <Link href={invoiceHref(invoice.id)}>{invoice.number}</Link>
                  {` – ${invoice.recipientName}, ${formatEuro(invoice.grossCents)}`}
                </li>
              ))}
            </ul>
          ) : null}
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'run.dismiss' })}
          >
            {t('run.dismiss')}
          </button>
        </div>
      ) : null}
      <Modal open={state.hasTag('open')} title={t('run.title')} busy={busy} onClose={abort}>
        {state.hasTag('checking') ? <Progress text={t('run.checking')} /> : null}
        {state.hasTag('nothingDue') ? <p>{t('run.nothingDue')}</p> : null}
        {preview && state.hasTag('question') ? (
          <>
            <p>
              <strong>
                {t('run.question', {
                  count: preview.itemCount,
                  formatted: formatNumber(preview.itemCount),
                  payers: formatNumber(preview.payerCount),
                  sum: formatEuro(preview.grossCents),
                })}
              </strong>
            </p>
            <p>{t('run.explain')}</p>
            <RunPreCheck actorRef={actorRef} />
          </>
        ) : null}
        {state.hasTag('running') && !state.hasTag('queued') ? (
          <Progress text={t('run.running')} />
        ) : null}
        {state.hasTag('queued') && run ? (
          <div className="invoice-run-progress">
            <Progress
              text={t('run.progress', {
                done: formatNumber(run.invoiceCount),
                total: formatNumber(run.payerCount),
              })}
            />
            <progress
              max={run.payerCount}
              value={run.invoiceCount}
              aria-label={t('run.progressLabel')}
            />
            <p className="field-hint">{t('run.queuedHint')}</p>
          </div>
        ) : null}
        {state.hasTag('jobFailed') ? (
          <div className="notice notice-error" role="alert">
            <p>{t('run.jobFailed', { done: formatNumber(run?.invoiceCount ?? 0) })}</p>
          </div>
        ) : null}
        {state.hasTag('error') ? (
          <div className="notice notice-error" role="alert">
            <p>
              {state.hasTag('question') ? `${t('run.failed')} ` : null}
              {t(invoiceErrorKey(error))}
            </p>
          </div>
        ) : null}
        <div className="form-actions">
          {state.hasTag('confirming') ? (
            <button
              type="button"
              className="button button-primary"
              disabled={!state.can({ type: 'run.confirm' })}
              onClick={() => actorRef.send({ type: 'run.confirm' })}
            >
              {t('run.confirm')}
            </button>
          ) : null}
          {state.can({ type: 'run.retry' }) ? (
            <button
              type="button"
              className="button button-primary"
              onClick={() => actorRef.send({ type: 'run.retry' })}
            >
              {t('run.retry')}
            </button>
          ) : null}
          <button type="button" className="button" disabled={busy} onClick={abort}>
            {state.hasTag('nothingDue') ? t('run.close') : t('run.abort')}
          </button>
        </div>
      </Modal>
    </section>
  );
}

const MISSING_LABELS = {
  street: tKey('invoices:run.gaps.fields.street'),
  postalCode: tKey('invoices:run.gaps.fields.postalCode'),
  city: tKey('invoices:run.gaps.fields.city'),
  invoiceEmail: tKey('invoices:run.gaps.fields.invoiceEmail'),
} as const;

/** Where a payer's address is completed: its catalogue entry, or the list when it has none. */
const catalogHref = (gap: InvoiceRunPreview['payersWithoutAddress'][number]) => {
  const list = gap.catalog === 'insurer' ? '/admin/insurers' : '/admin/campaigns';
  return gap.catalogId ? `${list}/${gap.catalogId}/edit` : `${list}/new`;
};

/**
 * Before the run: the practice settings' missing seller identifier, which blocks
 * every XRechnung, and the sponsors and insurers without a complete address, each linked to
 * where it is completed; issuing to them anyway is an explicit choice.
 */
function RunPreCheck({ actorRef }: { actorRef: RunActor }) {
  const { t } = useTranslation(['invoices', 'staff']);
  const preview = useSelector(actorRef, (s) => s.context.preview);
  const chosen = useSelector(actorRef, (s) => s.context.issueWithoutAddress);
  const editable = useSelector(actorRef, (s) => s.hasTag('confirming'));
  if (!preview) return null;
  const gaps = preview.payersWithoutAddress;
  return (
    <>
      {preview.sellerIdentifierMissing ? (
        <div className="notice notice-error" role="alert">
          <p>{t('run.gaps.sellerIdentifier')}</p>
          <Link href="/admin/practice">{t('run.gaps.sellerIdentifierLink')}</Link>
        </div>
      ) : null}
      {gaps.length ? (
        <div className="notice invoice-run-gaps">
          <h3>{t('run.gaps.title', { count: gaps.length })}</h3>
          <p>{t('run.gaps.explain')}</p>
          <ul aria-label={t('run.gaps.listLabel')}>
            {gaps.map((gap) => (
              <li key={`${gap.catalog}:${gap.name}`}>
                <Link href={catalogHref(gap)}>
                  {t(gap.catalogId ? 'run.gaps.complete' : 'run.gaps.create', { name: gap.name })}
                </Link>
                {' – '}
                {t('run.gaps.missing', {
                  fields: gap.missing.map((f) => t(MISSING_LABELS[f])).join(', '),
                  count: gap.itemCount,
                })}
              </li>
            ))}
          </ul>
          <label className="check-field">
            <input
              type="checkbox"
              checked={chosen}
              disabled={!editable}
              onChange={(e) =>
                actorRef.send({ type: 'run.issueWithoutAddress', value: e.target.checked })
              }
            />
            {t('run.gaps.issueAnyway')}
          </label>
        </div>
      ) : null}
    </>
  );
}

type DatevActor = ActorRefFrom<typeof datevExportMachine>;

/** "DATEV-Export": a range of invoice dates, then the file. */
function DatevPanel({ actorRef }: { actorRef: DatevActor }) {
  const { t } = useTranslation(['invoices', 'staff']);
  const state = useSelector(actorRef, (s) => s);
  const { fromDate, toDate, error } = state.context;
  const busy = state.hasTag('busy');
  return (
    <section className="invoice-tool" aria-labelledby="datev-title">
      <h2 id="datev-title">{t('datev.title')}</h2>
      <p>{t('datev.intro')}</p>
      <form
        className="datev-form"
        onSubmit={(e) => {
          e.preventDefault();
          actorRef.send({ type: 'datev.export' });
        }}
      >
        <div className="field">
          <label htmlFor="datev-from">{t('datev.from')}</label>
          <input
            id="datev-from"
            type="date"
            value={fromDate}
            onChange={(e) => actorRef.send({ type: 'datev.change', fromDate: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="datev-to">{t('datev.to')}</label>
          <input
            id="datev-to"
            type="date"
            value={toDate}
            aria-invalid={state.hasTag('invalidRange') || undefined}
            aria-describedby={state.hasTag('invalidRange') ? 'datev-range-error' : undefined}
            onChange={(e) => actorRef.send({ type: 'datev.change', toDate: e.target.value })}
          />
        </div>
        <button
          type="submit"
          className="button"
          disabled={!state.can({ type: 'datev.export' })}
          aria-busy={busy}
        >
          {busy ? t('datev.running') : t('datev.export')}
        </button>
      </form>
      {state.hasTag('invalidRange') ? (
        <p id="datev-range-error" className="field-error">
          {t('datev.invalidRange')}
        </p>
      ) : null}
      <p role="status">{state.hasTag('done') ? t('datev.done') : ''}</p>
      {state.hasTag('error') ? (
        <p className="notice notice-error" role="alert">
          {t(invoiceErrorKey(error))}
        </p>
      ) : null}
    </section>
  );
}
