import { useSelector } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { BILLABLE_ITEM_STATUSES, BILLING_PAYER_KINDS } from '../../../shared/contract/enums';
import {
  type BillableItem,
  type BillingSummary,
  billingTransitionTable,
  loadBillingPageActor,
} from '../../machines/actors/staff/billing';
import { isoDate, oneOf, text, uuid } from '../../machines/list.machine';
import { wireBillingBatch } from '../../machines/wiring/billing-batch';
import { useRouteActor } from '../route-actor';
import { StaffListPage } from '../staff/ActionLinks';
import { DataTable, type RowSelection } from '../staff/DataTable';
import { FilterForm, FilterInput, FilterSelect } from '../staff/FilterParts';
import type { ListActor } from '../staff/ListParts';
import { formatDate, formatEuro, formatNumber } from '../staff/format';
import { useFilterOptions, useStaffSession, useUrlList } from '../staff/useUrlList';
import { useSessionPermission } from '../session-status';
import { useBatchRowSelection } from '../parts/BatchParts';
import {
  BatchDialog,
  BatchResult,
  SelectionBar,
  useBillingWording,
  type BatchActor,
} from './BatchParts';
import { BillingSections } from './BillingSections';
import { billingColumns, PAYER_LABELS, personName, STATUS_LABELS } from './columns';
import './billing.css';

/** The filters of `/billing` as URL keys; `status` is the tab, `from`/`to` service dates. */
export const BILLING_FILTERS = z.object({
  status: oneOf(BILLABLE_ITEM_STATUSES),
  coach: uuid,
  clientId: uuid,
  insurer: text(100),
  payerKind: oneOf(BILLING_PAYER_KINDS),
  from: isoDate,
  to: isoDate,
});

/** Tabs by status, each with its count and sum under the other filters. */
function StatusTabs({ actorRef }: { actorRef: ListActor }) {
  const { t } = useTranslation('staff');
  const current = useSelector(actorRef, (s) => s.context.query.filters.status);
  const summary = useSelector(actorRef, (s) => s.context.summary as BillingSummary | null);
  const totals = summary?.statusTotals;
  const all = totals
    ? Object.values(totals).reduce((a, b) => ({
        count: a.count + b.count,
        amountCents: a.amountCents + b.amountCents,
      }))
    : null;
  const tabs = [
    { status: undefined, label: t('billingItems.tabs.all'), total: all },
    ...BILLABLE_ITEM_STATUSES.map((status) => ({
      status,
      label: t(STATUS_LABELS[status]),
      total: totals?.[status] ?? null,
    })),
  ];
  return (
    <nav className="status-tabs" aria-label={t('billingItems.tabs.label')}>
      {tabs.map((tab) => (
        <button
          key={tab.status ?? 'all'}
          type="button"
          className="status-tab"
          aria-current={current === tab.status ? 'page' : undefined}
          onClick={() => actorRef.send({ type: 'list.filter', filters: { status: tab.status } })}
        >
          <span className="status-tab-label">{tab.label}</span>
          {tab.total ? (
            <span className="status-tab-count">
              {t('billingItems.tabs.count', {
                count: tab.total.count,
                formatted: formatNumber(tab.total.count),
                sum: formatEuro(tab.total.amountCents),
              })}
            </span>
          ) : null}
        </button>
      ))}
    </nav>
  );
}

const asItem = (row: BillableItem) => ({
  id: row.id,
  status: row.status,
  amountCents: row.amountCents,
});

/** The row boxes of the table, kept by the batch machine. */
function useRowSelection(
  batchRef: BatchActor,
  enabled: boolean,
): RowSelection<BillableItem> | undefined {
  const { t } = useTranslation('staff');
  const rowLabel = useCallback(
    (row: BillableItem) =>
      t('billingItems.selection.row', {
        client: personName(row.client),
        date: formatDate(row.serviceDate),
      }),
    [t],
  );
  return useBatchRowSelection(batchRef, enabled, {
    asItem,
    rowLabel,
    pageLabel: t('billingItems.selection.page'),
    header: t('billingItems.selection.select'),
  });
}

/**
 * `/billing`: billable items by status tab, filtered; admins select items (on the page or all
 * matches) and apply one action to all of them. Everyone else reads.
 */
export default function BillingPage() {
  const { t } = useTranslation('staff');
  const { manager } = useStaffSession();
  const canAct = useSessionPermission('manageBilling');
  const listRef = useUrlList({
    path: '/billing',
    filters: BILLING_FILTERS,
    loadPage: loadBillingPageActor,
    defaultLimit: 25,
  });
  const filters = useSelector(listRef, (s) => s.context.query.filters);
  // The batch machine follows the list's filters: a new filter or tab drops the selection.
  const batchRef = useRouteActor((effects) => wireBillingBatch(effects, listRef), {
    input: { transitions: canAct ? billingTransitionTable() : {}, filter: filters },
  });
  const options = useFilterOptions(manager);
  const rows = useSelector(listRef, (s) => s.context.rows as readonly BillableItem[]);
  const matchCount = useSelector(listRef, (s) => (s.context.shownQuery ? s.context.itemCount : 0));
  const selection = useRowSelection(batchRef, canAct);
  const wording = useBillingWording(rows);
  const columns = useMemo(
    () =>
      billingColumns((clientId) => listRef.send({ type: 'list.filter', filters: { clientId } })),
    [listRef],
  );
  const f = (key: string) => filters[key];

  return (
    <StaffListPage title={t('billingItems.title')}>
      {canAct ? <BillingSections current="items" /> : null}
      <StatusTabs actorRef={listRef} />
      {canAct ? null : <p className="field-hint">{t('billingItems.readOnly')}</p>}
      <DataTable
        actorRef={listRef}
        columns={columns}
        label={t('billingItems.results')}
        emptyText={t('billingItems.empty')}
        selection={selection}
        filters={
          <>
            {filters.clientId ? (
              <p className="active-filter">
                {t('billingItems.filters.forClient')}
                <button
                  type="button"
                  className="button"
                  onClick={() =>
                    listRef.send({ type: 'list.filter', filters: { clientId: undefined } })
                  }
                >
                  {t('billingItems.filters.removeClient')}
                </button>
              </p>
            ) : null}
            <FilterForm actorRef={listRef}>
              <FilterInput
                name="from"
                type="date"
                label={t('billingItems.filters.from')}
                value={f('from')}
              />
              <FilterInput
                name="to"
                type="date"
                label={t('billingItems.filters.to')}
                value={f('to')}
              />
              <FilterSelect
                name="payerKind"
                label={t('billingItems.filters.payer')}
                value={f('payerKind')}
                options={BILLING_PAYER_KINDS.map((kind) => ({
                  value: kind,
                  label: t(PAYER_LABELS[kind]),
                }))}
              />
              <FilterSelect
                name="insurer"
                label={t('billingItems.filters.insurer')}
                value={f('insurer')}
                options={options.insurers.map((name) => ({ value: name, label: name }))}
              />
              {manager ? (
                <FilterSelect
                  name="coach"
                  label={t('billingItems.filters.coach')}
                  value={f('coach')}
                  options={options.coaches.map((c) => ({ value: c.id, label: c.name }))}
                />
              ) : null}
              {filters.status ? <input type="hidden" name="status" value={filters.status} /> : null}
              {filters.clientId ? (
                <input type="hidden" name="clientId" value={filters.clientId} />
              ) : null}
            </FilterForm>
            {canAct ? (
              <>
                <BatchResult actorRef={batchRef} wording={wording} />
                <SelectionBar
                  actorRef={batchRef}
                  wording={wording}
                  matchCount={matchCount}
                  pageRows={rows.length}
                />
              </>
            ) : null}
          </>
        }
      />
      {canAct ? <BatchDialog actorRef={batchRef} wording={wording} /> : null}
    </StaffListPage>
  );
}
