import {
  loadReviewMatchingActor,
  loadReviewOverviewActor,
  submitReviewBatchActor,
  type DocumentKind,
} from '../actors/staff/review';
import type { ActorRefFrom } from 'xstate';
import { batchActionMachine } from '../batch-action.machine';
import type { listMachine } from '../list.machine';
import { watchListFilter } from './list';
import { recordDetailMachine } from '../record-detail.machine';
import type { RouteEffects } from './effects';

/**
 * The batch action machine on signed documents of one kind: "Abschließen" through the review
 * calls; like billing's, it follows the list's filters (a new one drops the selection).
 */
export const wireReviewBatch = (
  { api }: RouteEffects,
  kind: DocumentKind,
  list: ActorRefFrom<typeof listMachine>,
  onDone: () => void,
) =>
  batchActionMachine.provide({
    actors: {
      loadMatching: loadReviewMatchingActor(api),
      submitBatch: submitReviewBatchActor(api, kind),
      watchFilter: watchListFilter(list),
    },
    actions: { notifyDone: () => onDone() },
  });

/** The /review overview (overall status and pending work per coach) as a read-only record. */
export const wireReviewOverview = ({ api }: RouteEffects) =>
  recordDetailMachine.provide({ actors: { loadDetail: loadReviewOverviewActor(api) } });
