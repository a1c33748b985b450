import { createCalendarFeedActor, loadCalendarFeedActor } from '../actors/scheduling';
import { calendarFeedMachine } from '../calendar-feed.machine';
import type { RouteEffects } from './effects';

/** The coach's calendar subscription on /profile, wired to the API. */
export const wireCalendarFeed = ({ api }: RouteEffects) =>
  calendarFeedMachine.provide({
    actors: { loadStatus: loadCalendarFeedActor(api), createFeed: createCalendarFeedActor(api) },
  });
