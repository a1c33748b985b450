import { fromCallback, type ActorRefFrom } from 'xstate';
import { loadBillingSelectionActor, submitBillingBatchActor } from '../actors/staff/billing';
import { batchActionMachine, type BatchEvent } from '../batch-action.machine';
import type { listMachine } from '../list.machine';
import type { RouteEffects } from './effects';

/**
 * Forwards each new filter of the list (a tab, a field, the URL) to the batch machine, which
 * drops the selection made under the old one.
 */
export const watchListFilter = (list: ActorRefFrom<typeof listMachine>) =>
  fromCallback<BatchEvent>(({ sendBack }) => {
    let last = list.getSnapshot().context.query.filters;
    const subscription = list.subscribe((snapshot) => {
      const filter = snapshot.context.query.filters;
      if (filter === last) return;
      last = filter;
      sendBack({ type: 'batch.filter', filter });
    });
    return () => subscription.unsubscribe();
  });

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
