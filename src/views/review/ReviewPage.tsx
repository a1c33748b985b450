import { useSelector } from '@xstate/react';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  REVIEW_TABS,
  REVIEW_TRANSITIONS,
  isSignedTab,
  kindOfTab,
  loadReviewPageActor,
  tabOf,
  type ReviewOverview,
  type ReviewRow,
  type ReviewTab,
} from '../../machines/actors/staff/review';
import { oneOf, uuid } from '../../machines/list.machine';
import { recordOf } from '../../machines/record-detail.machine';
import { wireReviewBatch, wireReviewOverview } from '../../machines/wiring/review';
import { BatchDialog, ListBatchBar, useBatchRowSelection } from '../parts/BatchParts';
import { useRouteActor } from '../route-actor';
import { useSessionPermission } from '../session-status';
import { StaffListPage } from '../staff/ActionLinks';
import { type Column, DataTable, Table } from '../staff/DataTable';
import { tKey } from '../../i18n/keys';
import { CoachFilter, FilterForm, FilterTabs, KeptFilters } from '../staff/FilterParts';
import { errorKey, type ListActor } from '../staff/ListParts';
import { formatDate, formatNumber } from '../staff/format';
import { useFilteredList, useStaffSession } from '../staff/useUrlList';
import './review.css';
import {
  EMPTY_LABELS,
  RESULT_LABELS,
  TAB_LABELS,
  personName,
  reviewColumns,
  reviewWording,
} from './columns';

/** The filters of `/review` as URL keys: `tab` is the list, `coach` the coach (managers). */
export const REVIEW_FILTERS = z.object({ tab: oneOf(REVIEW_TABS), coach: uuid });

type OverviewActor = ReturnType<typeof useOverviewActor>;
/** The overview for one coach filter (`id` empty: everyone in reach). */
const useOverviewActor = (coach: string | undefined) =>
  useRouteActor(wireReviewOverview, { input: { id: coach ?? '' } });

/** Overall status, counts per status, and what waits for review per coach. */
function Overview({
  actorRef,
  listRef,
  manager,
}: {
  actorRef: OverviewActor;
  listRef: ListActor;
  manager: boolean;
}) {
  const { t } = useTranslation('review');
  const overview = useSelector(actorRef, (s) => recordOf<ReviewOverview>(s.context));
  const failed = useSelector(actorRef, (s) => s.hasTag('error'));
  const error = useSelector(actorRef, (s) => s.context.error);
  if (!overview) {
    return (
      <section className="review-overview" aria-label={t('overview.title')}>
        {failed ? (
          <div className="notice notice-error" role="alert">
            <p>
              {t('overview.failed')} {t(errorKey(error))}
            </p>
            <button
              type="button"
              className="button"
              onClick={() => actorRef.send({ type: 'detail.retry' })}
            >
              {t('overview.retry')}
            </button>
          </div>
        ) : (
          <p role="status">{t('overview.loading')}</p>
        )}
      </section>
    );
  }
  const { status, pending } = overview;
  const rows: CountRow[] = [
    { id: 'summaries', label: t('overview.summaries'), counts: status.summaries },
    { id: 'patientCards', label: t('overview.patientCards'), counts: status.patientCards },
  ];
  return (
    <section className="review-overview" aria-labelledby="review-overview-title">
      <h2 id="review-overview-title">{t('overview.title')}</h2>
      <ul className="review-status" aria-label={t('overview.statusTitle')}>
        <StatusItem label={t('overview.allTasks')} status={overview.status} />
        <StatusItem label={t('overview.patientCards')} status={overview.cards} />
      </ul>
      <Table
        columns={COUNT_COLUMNS}
        rows={rows}
        caption={t('overview.counts')}
        showCaption
        className="review-counts"
      />
      {pending.coaches.length === 0 ? (
        <p>{t('overview.nothingPending')}</p>
      ) : (
        <Table
          columns={pendingColumns(
            manager ? (coach) => listRef.send({ type: 'list.filter', filters: { coach } }) : null,
          )}
          rows={pending.coaches.map((row) => ({ ...row, id: row.coach.id }))}
          caption={t('overview.byCoach')}
          showCaption
          className="review-pending"
        />
      )}
    </section>
  );
}

/** One overall status (available or blocker) with what is overdue, under its name. */
function StatusItem({
  label,
  status,
}: {
  label: string;
  status: { status: 'available' | 'blocker'; overdue: number };
}) {
  const { t } = useTranslation('review');
  return (
    <li className={status.status === 'blocker' ? 'notice notice-error' : 'notice notice-success'}>
      <span className="review-status-label">{label}</span>
      <strong>{t(`overview.${status.status}`)}</strong>
      {status.overdue > 0 ? (
        <span>
          {' '}
          {t('overview.overdue', {
            count: status.overdue,
            formatted: formatNumber(status.overdue),
          })}
        </span>
      ) : null}
    </li>
  );
}

type Counts = ReviewOverview['status']['summaries'];
interface CountRow {
  id: string;
  label: string;
  counts: Counts;
}

/** Documents per status: a row per kind of document, a column per status. */
const COUNT_COLUMNS: readonly Column<CountRow>[] = [
  { header: tKey('review:overview.document'), rowHeader: true, cell: (row) => row.label },
  ...(['missing', 'new', 'sent', 'completed'] as const).map((s): Column<CountRow> => ({
    header: `review:statuses.${s}`,
    cell: (row) => formatNumber(row.counts[s]),
  })),
  { header: tKey('review:overview.blocked'), cell: (row) => formatNumber(row.counts.blocked) },
];

type PendingRow = ReviewOverview['pending']['coaches'][number] & { id: string };

/** What waits for review, per coach; a manager picks a coach to filter the list below. */
const pendingColumns = (
  showCoach: ((coach: string) => void) | null,
): readonly Column<PendingRow>[] => [
  {
    header: tKey('review:columns.coach'),
    rowHeader: true,
    cell: (row, t) =>
      showCoach ? (
        <button
          type="button"
          className="link-button"
          aria-label={t(tKey('review:overview.showCoach'), { name: personName(row.coach) })}
          onClick={() => showCoach(row.coach.id)}
        >
          {personName(row.coach)}
        </button>
      ) : (
        personName(row.coach)
      ),
  },
  { header: tKey('review:overview.summaries'), cell: (row) => formatNumber(row.pendingSummaries) },
  {
    header: tKey('review:overview.patientCards'),
    cell: (row) => formatNumber(row.pendingPatientCards),
  },
  {
    header: tKey('review:overview.billableItems'),
    cell: (row) => formatNumber(row.pendingBillableItems),
  },
  { header: tKey('review:overview.oldest'), cell: (row) => formatDate(row.oldestPendingAt) },
];

/** One tab per list; the tab is a URL filter like the others. */
function Tabs({ actorRef, current }: { actorRef: ListActor; current: ReviewTab }) {
  const { t } = useTranslation('review');
  return (
    <FilterTabs
      actorRef={actorRef}
      name="tab"
      label={t('tabs.label')}
      current={current}
      tabs={REVIEW_TABS.map((tab) => ({ value: tab, label: t(TAB_LABELS[tab]) }))}
    />
  );
}

const asItem = (row: ReviewRow) => ({ id: row.id, status: row.status });

/** A row's box is labelled with its client and appointment date. */
const nameOf = (row: ReviewRow) => ({
  client: personName(row.client),
  date: formatDate(row.appointmentStartDate),
});

/**
 * One tab's table (mounted per tab, so the batch machine starts with that tab's call and an
 * empty selection): reviewers select signed documents and complete them in one batch.
 */
function ReviewTable({
  tab,
  listRef,
  canAct,
  coachFilter,
  onDone,
}: {
  tab: ReviewTab;
  listRef: ListActor;
  canAct: boolean;
  coachFilter: ReactNode;
  onDone: () => void;
}) {
  const { t } = useTranslation('review');
  const filters = useSelector(listRef, (s) => s.context.query.filters);
  const acting = canAct && isSignedTab(tab);
  const kind = kindOfTab(tab);
  const batchRef = useRouteActor((effects) => wireReviewBatch(effects, kind, listRef, onDone), {
    input: { transitions: acting ? REVIEW_TRANSITIONS : {}, filter: filters },
  });
  const rows = useSelector(listRef, (s) => s.context.rows as readonly ReviewRow[]);
  const columns = useMemo(() => reviewColumns(tab), [tab]);
  const wording = useMemo(() => reviewWording(kind, rows), [kind, rows]);
  const selection = useBatchRowSelection(batchRef, acting, wording, asItem, nameOf);
  return (
    <>
      {canAct || !isSignedTab(tab) ? null : <p className="field-hint">{t('readOnly')}</p>}
      <DataTable
        actorRef={listRef}
        columns={columns}
        label={t(RESULT_LABELS[tab])}
        emptyText={t(EMPTY_LABELS[tab])}
        selection={selection}
        filters={
          <>
            {coachFilter}
            {acting ? (
              <ListBatchBar actorRef={batchRef} wording={wording} listRef={listRef} />
            ) : null}
          </>
        }
      />
      {acting ? <BatchDialog actorRef={batchRef} wording={wording} /> : null}
    </>
  );
}

/**
 * Everything under one coach filter (mounted per filter, so the overview loads for it and a
 * selection made under another filter is gone): the overview, the tabs, the tab's table.
 */
function ReviewBody({ listRef, coachFilter }: { listRef: ListActor; coachFilter: ReactNode }) {
  const { manager } = useStaffSession();
  // Completing is for whoever may read the documents (not onboarding managers, not coaches).
  const canAct = useSessionPermission('completeReview');
  const filters = useSelector(listRef, (s) => s.context.query.filters);
  const tab = tabOf(filters);
  const overviewRef = useOverviewActor(filters.coach);
  return (
    <>
      <Overview actorRef={overviewRef} listRef={listRef} manager={manager} />
      <Tabs actorRef={listRef} current={tab} />
      <ReviewTable
        key={tab}
        tab={tab}
        listRef={listRef}
        canAct={canAct}
        coachFilter={coachFilter}
        onDone={() => {
          listRef.send({ type: 'list.reload' });
          overviewRef.send({ type: 'detail.reload' });
        }}
      />
    </>
  );
}

/**
 * `/review` ("Prüfung"): the overview (status counts, pending work per coach) and four lists:
 * signed summaries and patient cards waiting for review, which admins complete in batches
 * (the session's `completeReview`), and the incomplete ones, oldest first. Coaches see their own work;
 * managers everyone's, filterable by coach (`?coach=`), the list in the address (`?tab=`).
 */
export default function ReviewPage() {
  const { t } = useTranslation('review');
  const {
    manager,
    actorRef: listRef,
    options,
    filters,
  } = useFilteredList({
    path: '/review',
    filters: REVIEW_FILTERS,
    loadPage: loadReviewPageActor,
    defaultLimit: 25,
  });
  const coachFilter = manager ? (
    <FilterForm actorRef={listRef}>
      <CoachFilter label={t('filters.coach')} value={filters.coach} options={options} />
      <KeptFilters filters={filters} names={['tab']} />
    </FilterForm>
  ) : null;
  return (
    <StaffListPage title={t('title')}>
      <p>{t('intro')}</p>
      <ReviewBody key={filters.coach ?? ''} listRef={listRef} coachFilter={coachFilter} />
    </StaffListPage>
  );
}
