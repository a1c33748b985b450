import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
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
import { DataTable } from '../staff/DataTable';
import {
  ActiveFilter,
  CoachFilter,
  FilterForm,
  FilterInput,
  FilterSelect,
  FilterTabs,
  KeptFilters,
} from '../staff/FilterParts';
import type { ListActor } from '../staff/ListParts';
import { formatDate, formatEuro, formatNumber } from '../staff/format';
import { useFilteredList } from '../staff/useUrlList';
import { useSessionPermission } from '../session-status';
import { ListBatchBar, useBatchRowSelection } from '../parts/BatchParts';
import { BatchDialog, useBillingWording } from './BatchParts';
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
  const summary = useSelector(actorRef, (s) => s.context.summary as BillingSummary | null);
  const totals = summary?.statusTotals;
  const all = totals
    ? Object.values(totals).reduce((a, b) => ({
        count: a.count + b.count,
        amountCents: a.amountCents + b.amountCents,
      }))
    : null;
  const count = (total: { count: number; amountCents: number } | null) =>
    total
      ? t('billingItems.tabs.count', {
          count: total.count,
          formatted: formatNumber(total.count),
          sum: formatEuro(total.amountCents),
        })
      : null;
  return (
    <FilterTabs
      actorRef={actorRef}
      name="status"
      label={t('billingItems.tabs.label')}
      tabs={[
        { value: undefined, label: t('billingItems.tabs.all'), count: count(all) },
        ...BILLABLE_ITEM_STATUSES.map((status) => ({
          value: status,
          label: t(STATUS_LABELS[status]),
          count: count(totals?.[status] ?? null),
        })),
      ]}
    />
  );
}

const asItem = (row: BillableItem) => ({
  id: row.id,
  status: row.status,
  amountCents: row.amountCents,
});

/** A row's box is labelled with its client and service date. */
const nameOf = (row: BillableItem) => ({
  client: personName(row.client),
  date: formatDate(row.serviceDate),
});

/**
 * `/billing`: billable items by status tab, filtered; admins select items (on the page or all
 * matches) and apply one action to all of them. Everyone else reads.
 */
export default function BillingPage() {
  const { t } = useTranslation('staff');
  const canAct = useSessionPermission('manageBilling');
  const {
    manager,
    actorRef: listRef,
    options,
    filters,
    f,
  } = useFilteredList({
    path: '/billing',
    filters: BILLING_FILTERS,
    loadPage: loadBillingPageActor,
    defaultLimit: 25,
  });
  // The batch machine follows the list's filters: a new filter or tab drops the selection.
  const batchRef = useRouteActor((effects) => wireBillingBatch(effects, listRef), {
    input: { transitions: canAct ? billingTransitionTable() : {}, filter: filters },
  });
  const rows = useSelector(listRef, (s) => s.context.rows as readonly BillableItem[]);
  const wording = useBillingWording(rows);
  const selection = useBatchRowSelection(batchRef, canAct, wording, asItem, nameOf);
  const columns = useMemo(
    () =>
      billingColumns((clientId) => listRef.send({ type: 'list.filter', filters: { clientId } })),
    [listRef],
  );

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
              <ActiveFilter
                label={t('billingItems.filters.forClient')}
                buttonLabel={t('billingItems.filters.removeClient')}
                onClick={() =>
                  listRef.send({ type: 'list.filter', filters: { clientId: undefined } })
                }
              />
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
                <CoachFilter
                  label={t('billingItems.filters.coach')}
                  value={f('coach')}
                  options={options}
                />
              ) : null}
              <KeptFilters filters={filters} names={['status', 'clientId']} />
            </FilterForm>
            {canAct ? (
              <ListBatchBar actorRef={batchRef} wording={wording} listRef={listRef} />
            ) : null}
          </>
        }
      />
      {canAct ? <BatchDialog actorRef={batchRef} wording={wording} /> : null}
    </StaffListPage>
  );
}
