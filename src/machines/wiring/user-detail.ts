import { loadUserActor, setUserActiveActor } from '../actors/staff/users';
import { recordDetailMachine } from '../record-detail.machine';
import type { RouteEffects } from './effects';
import { wireRecordActive } from './record-active';

/** A user's record and its (de)activation, wired to the API and the toasts. */

export const wireUserDetail = ({ api }: RouteEffects) =>
  recordDetailMachine.provide({ actors: { loadDetail: loadUserActor(api) } });

/** Deactivates or reactivates a user; `done` runs after the toast (the page reloads the user). */
export const wireUserActive = (effects: RouteEffects, done: () => void) =>
  wireRecordActive(
    effects,
    setUserActiveActor(effects.api),
    { activated: 'staff:toasts.userActivated', deactivated: 'staff:toasts.userDeactivated' },
    done,
  );
