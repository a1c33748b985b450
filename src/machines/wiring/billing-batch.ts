import { loadBillingSelectionActor, submitBillingBatchActor } from '../actors/staff/billing';
import { batchActionMachine } from '../batch-action.machine';
import type { RouteEffects } from './effects';

/** The batch action machine on billable items: the matching ids and the batch calls of the API. */
export const wireBillingBatch = ({ api }: RouteEffects, onDone: () => void) =>
  batchActionMachine.provide({
    actors: { loadMatching: loadBillingSelectionActor(api), submitBatch: submitBillingBatchActor(api) },
    actions: { notifyDone: () => onDone() },
  });
