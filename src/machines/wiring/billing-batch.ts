import type { ActorRefFrom } from 'xstate';
import { loadBillingSelectionActor, submitBillingBatchActor } from '../actors/staff/billing';
import { batchActionMachine } from '../batch-action.machine';
import type { listMachine } from '../list.machine';
import type { RouteEffects } from './effects';
import { watchListFilter } from './list';

/**
 * The batch action machine on billable items: the matching ids and the batch calls of the
 * API; it follows the list's filters and reloads the list after a batch.
 */
export const wireBillingBatch = ({ api }: RouteEffects, list: ActorRefFrom<typeof listMachine>) =>
  batchActionMachine.provide({
    actors: {
      loadMatching: loadBillingSelectionActor(api),
      submitBatch: submitBillingBatchActor(api),
      watchFilter: watchListFilter(list),
    },
    actions: { notifyDone: () => list.send({ type: 'list.reload' }) },
  });
