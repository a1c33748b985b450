import {
  loadReviewMatchingActor,
  loadReviewOverviewActor,
  submitReviewBatchActor,
  type DocumentKind,
} from '../actors/staff/review';
import { batchActionMachine } from '../batch-action.machine';
import { recordDetailMachine } from '../record-detail.machine';
import type { RouteEffects } from './effects';

/** The batch action machine on signed documents of one kind: "Abschließen" through the review calls. */
export const wireReviewBatch = ({ api }: RouteEffects, kind: DocumentKind, onDone: () => void) =>
  batchActionMachine.provide({
    actors: { loadMatching: loadReviewMatchingActor(api), submitBatch: submitReviewBatchActor(api, kind) },
    actions: { notifyDone: () => onDone() },
  });

/** The /review overview (overall status and pending work per coach) as a read-only record. */
export const wireReviewOverview = ({ api }: RouteEffects) =>
  recordDetailMachine.provide({ actors: { loadDetail: loadReviewOverviewActor(api) } });
