import { loadUserActor, setUserActiveActor } from '../actors/staff/users';
import { confirmActionMachine } from '../confirm-action.machine';
import { recordDetailMachine } from '../record-detail.machine';
import type { RouteEffects } from './effects';

/** A user's record and its (de)activation, wired to the API and the toasts. */

export const wireUserDetail = ({ api }: RouteEffects) =>
  recordDetailMachine.provide({ actors: { loadDetail: loadUserActor(api) } });

/** Deactivates or reactivates a user; `done` runs after the toast (the page reloads the user). */
export const wireUserActive = ({ api, toast }: RouteEffects, done: () => void) =>
  confirmActionMachine.provide({
    actors: { runAction: setUserActiveActor(api) },
    actions: {
      notifyDone: (_, { payload }) => {
        toast({
          kind: 'success',
          messageKey: payload.active ? 'staff:toasts.userActivated' : 'staff:toasts.userDeactivated',
        });
        done();
      },
    },
  });
