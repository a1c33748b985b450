import {
  loadAppointmentActor,
  loadCoachesActor,
  loadCalendarWeekActor,
  watchViewportActor,
} from '../actors/scheduling';
import { cancelAppointmentActor } from '../actors/staff/appointments';
import { calendarMachine } from '../calendar.machine';
import type { RouteEffects } from './effects';

/** The calendar's machine wired to the API, the viewport and the toasts. */

export const wireCalendar = ({ api, toast }: RouteEffects) =>
  calendarMachine.provide({
    actors: {
      loadCoaches: loadCoachesActor(api),
      loadEvents: loadCalendarWeekActor(api),
      loadAppointment: loadAppointmentActor(api),
      cancelAppointment: cancelAppointmentActor(api),
      watchViewport: watchViewportActor(typeof window === 'undefined' ? undefined : window),
    },
    actions: {
      notifyCancelled: () =>
        toast({ kind: 'success', messageKey: 'scheduling:calendar.cancelledToast' }),
    },
  });
