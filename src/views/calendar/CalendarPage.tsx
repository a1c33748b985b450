import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import { useAppServices } from '../../app/services';
import { useSessionStatus } from '../../app/session-hooks';
import {
  cancelAppointmentActor,
  isNarrow,
  loadAppointmentActor,
  loadCoachesActor,
  loadEventsActor,
  watchViewportActor,
} from '../../machines/actors/scheduling';
import { calendarMachine } from '../../machines/calendar.machine';
import { browserTimeZone, todayInBerlin } from '../../machines/scheduling/time';
import { CalendarView } from './CalendarView';

/** `/calendar`: wires the calendar machine to the API, the viewport and the toasts. */
export default function CalendarPage() {
  const { api, toasts } = useAppServices();
  const status = useSessionStatus();
  const session = status.kind === 'signedIn' ? status.session : null;
  const [browserZone] = useState(browserTimeZone);
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
    { input: { role: session?.role ?? 'COACH', today: todayInBerlin(), narrow: isNarrow(win) } },
  );
  return <CalendarView actorRef={actorRef} browserZone={browserZone} />;
}
