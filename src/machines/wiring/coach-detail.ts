import { loadCoachActor, setCoachActiveActor } from '../actors/staff/coaches';
import { recordDetailMachine } from '../record-detail.machine';
import type { RouteEffects } from './effects';
import { wireRecordActive } from './record-active';

/** A coach's detail and its (de)activation, wired to the API and the toasts. */

export const wireCoachDetail = ({ api }: RouteEffects) =>
  recordDetailMachine.provide({ actors: { loadDetail: loadCoachActor(api) } });

/** Deactivates or reactivates a coach; `done` runs after the toast (the page reloads the coach). */
export const wireCoachActive = (effects: RouteEffects, done: () => void) =>
  wireRecordActive(
    effects,
    setCoachActiveActor(effects.api),
    { activated: 'staff:toasts.coachReactivated', deactivated: 'staff:toasts.coachDeactivated' },
    done,
  );
