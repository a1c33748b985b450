import type { PromiseActorLogic } from 'xstate';
import type { ActivePayload } from '../actors/staff/query';
import { confirmActionMachine } from '../confirm-action.machine';
import type { RouteEffects } from './effects';

/**
 * Deactivates or reactivates a record (a coach, a user) after the confirm question: `runAction`
 * is its API call, the toast says which way it went, then `done` runs (the page reloads).
 */
export const wireRecordActive = (
  { toast }: RouteEffects,
  runAction: PromiseActorLogic<unknown, ActivePayload>,
  messageKeys: { activated: string; deactivated: string },
  done: () => void,
) =>
  confirmActionMachine.provide({
    actors: { runAction },
    actions: {
      notifyDone: (_, { payload }) => {
        toast({
          kind: 'success',
          messageKey: payload.active ? messageKeys.activated : messageKeys.deactivated,
        });
        done();
      },
    },
  });
