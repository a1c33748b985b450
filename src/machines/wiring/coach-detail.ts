import { loadCoachActor, setCoachActiveActor } from '../actors/staff/coaches';
import { confirmActionMachine } from '../confirm-action.machine';
import { recordDetailMachine } from '../record-detail.machine';
import type { RouteEffects } from './effects';

/** A coach's detail and its (de)activation, wired to the API and the toasts. */

export const wireCoachDetail = ({ api }: RouteEffects) =>
  recordDetailMachine.provide({ actors: { loadDetail: loadCoachActor(api) } });

/** Deactivates or reactivates a coach; `done` runs after the toast (the page reloads the coach). */
export const wireCoachActive = ({ api, toast }: RouteEffects, done: () => void) =>
  confirmActionMachine.provide({
    actors: { runAction: setCoachActiveActor(api) },
    actions: {
      notifyDone: (_, { payload }) => {
        toast({
          kind: 'success',
          messageKey: payload.active ? 'staff:toasts.coachReactivated' : 'staff:toasts.coachDeactivated',
        });
        done();
      },
    },
  });
