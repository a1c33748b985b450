import { createCalendarConnectionsActors } from '../actors/calendar-connections';
import { calendarConnectionsMachine } from '../calendar-connections.machine';
import type { RouteEffects } from './effects';

/** "Verbundene Kalender" on /profile, wired to the API. */
export const wireCalendarConnections = ({ api }: RouteEffects) =>
  calendarConnectionsMachine.provide({ actors: createCalendarConnectionsActors(api) });
