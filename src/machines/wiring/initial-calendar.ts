import { loadAppointmentActor, watchViewportActor } from '../actors/scheduling';
import { loadInitialCalendarActor } from '../actors/initial-calendar';
import { initialCalendarMachine } from '../initial-calendar.machine';
import type { RouteEffects } from './effects';

/** The initial-meetings calendar's machine wired to the API and the viewport. */
export const wireInitialCalendar = ({ api }: RouteEffects) =>
  initialCalendarMachine.provide({
    actors: {
      loadCalendar: loadInitialCalendarActor(api),
      loadAppointment: loadAppointmentActor(api),
      watchViewport: watchViewportActor(typeof window === 'undefined' ? undefined : window),
    },
  });
