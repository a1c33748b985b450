import { useActorRef } from '@xstate/react';
import { useAppServices } from '../../app/services';
import {
  cancelAppointmentActor,
  isNarrow,
  loadAppointmentActor,
  loadCoachesActor,
  loadEventsActor,
  watchViewportActor,
} from '../../machines/actors/scheduling';
import { calendarMachine } from '../../machines/calendar.machine';
import { todayInBerlin } from '../../../shared/time';
import { useSchedulingSession } from './scheduling-session';
import { CalendarView } from './CalendarView';

/** `/calendar`: wires the calendar machine to the API, the viewport and the toasts. */
export default function CalendarPage() {
  const { api, toasts } = useAppServices();
  const { browserZone, role } = useSchedulingSession();
  const win = typeof window === 'undefined' ? undefined : window;
  const actorRef = useActorRef(
    calendarMachine.provide({
      actors: {
        loadCoaches: loadCoachesActor(api),
        loadEvents: loadEventsActor(api),
        loadAppointment: loadAppointmentActor(api),
        cancelAppointment: cancelAppointmentActor(api),
        watchViewport: watchViewportActor(win),
      },
      actions: {
        notifyCancelled: () =>
          toasts.send({ type: 'show', kind: 'success', messageKey: 'scheduling:calendar.cancelledToast' }),
      },
    }),
    { input: { role, today: todayInBerlin(), narrow: isNarrow(win) } },
  );
  return <CalendarView actorRef={actorRef} browserZone={browserZone} />;
}
