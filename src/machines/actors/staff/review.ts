import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { components } from '../../../../shared/contract/product';
import type { BatchFilter, BatchRequest, MatchingItems } from '../../batch-action.machine';
import { MAX_PAGE_SIZE, type ListPage, type ListQuery } from '../../list.machine';
import { defined } from './query';

/**
 * The /review screen's calls: the four lists (signed documents waiting for review, and the
 * incomplete ones) as one row shape, everything a list matches for the batch, the batch
 * ("Abschließen"), and the overview (overall status and pending work per coach).
 */

export const REVIEW_TABS = [
  'summaries',
  'patientCards',
  'openSummaries',
  'openPatientCards',
] as const;
export type ReviewTab = (typeof REVIEW_TABS)[number];
export type DocumentKind = 'summary' | 'patientCard';

type PersonRef = components['schemas']['PersonRef'];

/** One row of any /review list. */
export interface ReviewRow {
  /** The row's key and, on the signed tabs, the document the batch completes. */
  id: string;
  kind: DocumentKind;
  /** The document, if one exists yet (open lists: missing or a draft). */
  documentId: string | null;
  status: 'missing' | 'new' | 'sent';
  appointmentId: string;
  appointmentStartDate: string;
  appointmentType: components['schemas']['AppointmentType'];
  client: PersonRef;
  coach: PersonRef;
  /** Signed tabs: days since signing; open tabs: days since the appointment started. */
  days: number;
  signedAt: string | null;
}

export const kindOfTab = (tab: ReviewTab): DocumentKind =>
  tab === 'summaries' || tab === 'openSummaries' ? 'summary' : 'patientCard';
export const isSignedTab = (tab: ReviewTab) => tab === 'summaries' || tab === 'patientCards';
export const tabOf = (filters: BatchFilter): ReviewTab =>
  (REVIEW_TABS as readonly string[]).includes(filters.tab ?? '')
    ? (filters.tab as ReviewTab)
    : 'summaries';

/** Per action the statuses that allow it: a reviewer completes signed documents. */
export const REVIEW_TRANSITIONS = { complete: ['sent'] } as const;

type Signed =
  components['schemas']['ReviewSummaryItem'] | components['schemas']['ReviewPatientCardItem'];
type Open = components['schemas']['SummaryWorkItem'] | components['schemas']['PatientCardWorkItem'];

const signedRow = (kind: DocumentKind, documentId: string, item: Signed): ReviewRow => ({
  id: documentId,
  kind,
  documentId,
  status: 'sent',
  appointmentId: item.appointmentId,
  appointmentStartDate: item.appointmentStartDate,
  appointmentType: item.appointmentType,
  client: item.client,
  coach: item.coach,
  days: item.daysWaiting,
  signedAt: item.signedAt,
});

const openRow = (kind: DocumentKind, documentId: string | null, item: Open): ReviewRow => ({
  id: item.appointmentId,
  kind,
  documentId,
  status: item.status,
  appointmentId: item.appointmentId,
  appointmentStartDate: item.appointmentStartDate,
  appointmentType: item.appointmentType,
  client: item.client,
  coach: item.coach,
  days: item.daysOverdue,
  signedAt: null,
});

/** One page of the tab's list, as `ReviewRow`s. */
async function reviewPage(
  api: ApiClient,
  tab: ReviewTab,
  q: { page: number; limit: number; coachId?: string },
  signal?: AbortSignal,
): Promise<{ rows: ReviewRow[]; itemCount: number }> {
  const params = { query: defined(q) };
  switch (tab) {
    case 'summaries': {
      const { data } = await api.GET('/review/summaries', { params, signal });
      return {
        rows: data!.summaries.map((s) => signedRow('summary', s.summaryId, s)),
        itemCount: data!.itemCount,
      };
    }
    case 'patientCards': {
      const { data } = await api.GET('/review/patient-cards', { params, signal });
      return {
        rows: data!.patientCards.map((c) => signedRow('patientCard', c.patientCardId, c)),
        itemCount: data!.itemCount,
      };
    }
    case 'openSummaries': {
      const { data } = await api.GET('/summaries/incomplete', { params, signal });
      return {
        rows: data!.summaries.map((s) => openRow('summary', s.summaryId, s)),
        itemCount: data!.itemCount,
      };
    }
    case 'openPatientCards': {
      const { data } = await api.GET('/patient-cards/incomplete', { params, signal });
      return {
        rows: data!.patientCards.map((c) => openRow('patientCard', c.patientCardId, c)),
        itemCount: data!.itemCount,
      };
    }
  }
}

/** `/review`'s list: the URL's `tab` picks the call, `coach` filters. */
export const loadReviewPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(({ input, signal }) =>
    reviewPage(
      api,
      tabOf(input.filters),
      defined({ page: input.page, limit: input.limit, coachId: input.filters.coach }),
      signal,
    ),
  );

/** One batch at most. */
const BATCH_MAX = 1000;

/** Every signed document the tab matches (up to one batch), page by page of the list call. */
export const loadReviewMatchingActor = (api: ApiClient) =>
  fromPromise<MatchingItems, BatchFilter>(async ({ input, signal }) => {
    const tab = tabOf(input);
    const items: { id: string; status: string }[] = [];
    let itemCount = 0;
    for (let page = 1; items.length < BATCH_MAX; page++) {
      const q = defined({ page, limit: MAX_PAGE_SIZE, coachId: input.coach });
      const result = await reviewPage(api, tab, q, signal);
      itemCount = result.itemCount;
      items.push(...result.rows.map((r) => ({ id: r.id, status: r.status })));
      if (result.rows.length < MAX_PAGE_SIZE || items.length >= itemCount) break;
    }
    const capped = itemCount > BATCH_MAX;
    return { items: items.slice(0, BATCH_MAX), itemCount, capped };
  });

/** "Abschließen": the tab's batch call with its Idempotency-Key; the count completed. */
export const submitReviewBatchActor = (api: ApiClient, kind: DocumentKind) =>
  fromPromise<{ count: number }, BatchRequest>(async ({ input, signal }) => {
    const params = { header: { 'Idempotency-Key': input.idempotencyKey } };
    const body = { ids: [...input.ids] };
    const path = kind === 'summary' ? '/summaries/batch-process' : '/patient-cards/batch-process';
    const { data } = await api.POST(path, { params, body, signal });
    return { count: data!.processed };
  });

export interface ReviewOverview {
  /** Every document's work (patient cards and summaries). */
  status: components['schemas']['TasksOverallStatus'];
  /** The patient cards' own overall status, shown beside the tasks'. */
  cards: components['schemas']['PatientCardsOverallStatus'];
  pending: components['schemas']['PendingReviewList'];
}

/**
 * The overview for the coach filter (`id`: a coach's id, or empty for everyone in reach), as
 * the record of the record-detail machine (`unknown` there; the page reads it as `ReviewOverview`).
 */
export const loadReviewOverviewActor = (api: ApiClient) =>
  fromPromise<unknown, { id: string }>(async ({ input, signal }): Promise<ReviewOverview> => {
    const coachId = input.id || undefined;
    const query = defined({ coachId });
    const [status, cards, pending] = await Promise.all([
      api.GET('/tasks/overall-status', { params: { query }, signal }),
      api.GET('/patient-cards/overall-status', { params: { query }, signal }),
      api.GET('/review/pending-by-coach', {
        params: { query: defined({ coachId, limit: MAX_PAGE_SIZE }) },
        signal,
      }),
    ]);
    return { status: status.data!, cards: cards.data!, pending: pending.data! };
  });
