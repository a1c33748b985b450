import {
  deleteAvailabilityActor,
  loadCoachesActor,
  loadWeekActor,
  saveAvailabilityActor,
} from '../actors/scheduling';
import { availabilityWeekMachine } from '../availability-week.machine';
import type { RouteEffects } from './effects';

/** The availability week's machine wired to the API and the toasts. */

export const wireAvailabilityWeek = ({ api, toast }: RouteEffects) =>
  availabilityWeekMachine.provide({
    actors: {
      loadCoaches: loadCoachesActor(api),
      loadWeek: loadWeekActor(api),
      saveAvailability: saveAvailabilityActor(api),
      deleteAvailability: deleteAvailabilityActor(api),
    },
    actions: {
      notifySaved: () =>
        toast({ kind: 'success', messageKey: 'scheduling:availability.savedToast' }),
      notifyDeleted: () =>
        toast({ kind: 'success', messageKey: 'scheduling:availability.deletedToast' }),
    },
  });
