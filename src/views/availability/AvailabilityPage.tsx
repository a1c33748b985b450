import { useActorRef } from '@xstate/react';
import { useAppServices } from '../../app/services';
import {
  deleteAvailabilityActor,
  loadCoachesActor,
  loadWeekActor,
  saveAvailabilityActor,
} from '../../machines/actors/scheduling';
import { availabilityWeekMachine } from '../../machines/availability-week.machine';
import { todayInBerlin } from '../../../shared/time';
import { useSchedulingSession } from '../calendar/scheduling-session';
import { AvailabilityWeekView } from './AvailabilityWeekView';

/** `/availability`: wires the week machine to the API and the toasts. */
export default function AvailabilityPage() {
  const { api, toasts } = useAppServices();
  const { browserZone, role, ownCoachId } = useSchedulingSession();
  const actorRef = useActorRef(
    availabilityWeekMachine.provide({
      actors: {
        loadCoaches: loadCoachesActor(api),
        loadWeek: loadWeekActor(api),
        saveAvailability: saveAvailabilityActor(api),
        deleteAvailability: deleteAvailabilityActor(api),
      },
      actions: {
        notifySaved: () =>
          toasts.send({ type: 'show', kind: 'success', messageKey: 'scheduling:availability.savedToast' }),
        notifyDeleted: () =>
          toasts.send({ type: 'show', kind: 'success', messageKey: 'scheduling:availability.deletedToast' }),
      },
    }),
    { input: { role, ownCoachId, today: todayInBerlin() } },
  );
  return <AvailabilityWeekView actorRef={actorRef} browserZone={browserZone} />;
}
