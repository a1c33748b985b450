import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { components, operations } from '../../../../shared/contract/product';
import { BILLING_TRANSITIONS, type BillingAction } from '../../../../shared/billing-transitions';
import type { BatchFilter, BatchRequest, MatchingItems } from '../../batch-action.machine';
import type { ListPage, ListQuery } from '../../list.machine';
import { defined } from './query';

/** The /billing screen's calls: a page of items with the tab totals, the matching ids, a batch. */

export type BillableItem = components['schemas']['BillableItem'];
export type BillingSummary = Pick<
  components['schemas']['BillableItemList'],
  'statusTotals' | 'amountCentsTotal'
>;
type ItemsQuery = NonNullable<operations['listBillableItems']['parameters']['query']>;
type SelectionQuery = NonNullable<operations['listBillableItemSelection']['parameters']['query']>;

/** The shared transition table as the batch machine reads it: per action, the statuses that allow it. */
export const billingTransitionTable = (): Record<BillingAction, readonly string[]> =>
  Object.fromEntries(
    Object.entries(BILLING_TRANSITIONS).map(([action, { from }]) => [action, from]),
  ) as Record<BillingAction, readonly string[]>;

/** The /billing URL filters as API parameters (service dates are plain dates, both included). */
export function billingFiltersOf(filters: BatchFilter): SelectionQuery {
  return defined({
    status: filters.status as SelectionQuery['status'],
    coachId: filters.coach,
    clientId: filters.clientId,
    insurer: filters.insurer,
    payerKind: filters.payerKind as SelectionQuery['payerKind'],
    fromDate: filters.from,
    toDate: filters.to,
  });
}

export const billingQueryOf = (query: ListQuery): ItemsQuery => ({
  ...billingFiltersOf(query.filters),
  page: query.page,
  limit: query.limit,
});

/** `GET /billable-items`: the rows, and the tab totals as the list's summary. */
export const loadBillingPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/billable-items', {
      params: { query: billingQueryOf(input) },
      signal,
    });
    const summary: BillingSummary = {
      statusTotals: data!.statusTotals,
      amountCentsTotal: data!.amountCentsTotal,
    };
    return { rows: data!.billableItems, itemCount: data!.itemCount, summary };
  });

/** `GET /billable-items/selection`: everything the filter matches, up to one batch. */
export const loadBillingSelectionActor = (api: ApiClient) =>
  fromPromise<MatchingItems, BatchFilter>(async ({ input, signal }) => {
    const { data } = await api.GET('/billable-items/selection', {
      params: { query: billingFiltersOf(input) },
      signal,
    });
    return data!;
  });

const BATCH_PATHS = {
  approve: '/billable-items/batch-approve',
  cancel: '/billable-items/batch-cancel',
  uncancel: '/billable-items/batch-uncancel',
  markInvoiceSent: '/billable-items/batch-mark-invoice-sent',
  removeValidation: '/billable-items/batch-remove-validation',
} as const satisfies Record<Exclude<BillingAction, 'delete'>, string>;

/** One batch call with its Idempotency-Key; the answer's count of changed items. */
export const submitBillingBatchActor = (api: ApiClient) =>
  fromPromise<{ count: number }, BatchRequest>(async ({ input, signal }) => {
    const params = { header: { 'Idempotency-Key': input.idempotencyKey } };
    const body = { ids: [...input.ids] };
    if (input.action === 'delete') {
      const { data } = await api.DELETE('/billable-items/batch-delete', { params, body, signal });
      return { count: data!.deleted };
    }
    const path = BATCH_PATHS[input.action as keyof typeof BATCH_PATHS];
    if (!path) throw new Error(`unknown billing action ${input.action}`);
    const { data } = await api.PUT(path, { params, body, signal });
    return { count: data!.updated };
  });
