import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import { useAppServices } from '../../app/services';
import { useSessionStatus } from '../../app/session-hooks';
import {
  deleteAvailabilityActor,
  loadCoachesActor,
  loadWeekActor,
  saveAvailabilityActor,
} from '../../machines/actors/scheduling';
import { availabilityWeekMachine } from '../../machines/availability-week.machine';
import { browserTimeZone, todayInBerlin } from '../../machines/scheduling/time';
import { AvailabilityWeekView } from './AvailabilityWeekView';

/** `/availability`: wires the week machine to the API and the toasts. */
export default function AvailabilityPage() {
  const { api, toasts } = useAppServices();
  const status = useSessionStatus();
  const session = status.kind === 'signedIn' ? status.session : null;
  const [browserZone] = useState(browserTimeZone);
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
    { input: { role: session?.role ?? 'COACH', ownCoachId: session?.coach?.id ?? null, today: todayInBerlin() } },
  );
  return <AvailabilityWeekView actorRef={actorRef} browserZone={browserZone} />;
}
