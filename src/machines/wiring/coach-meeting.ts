import {
  fetchCoachTokenActor,
  loadUpcomingActor,
  lookupCoachMeetingActor,
  recordFinishedActor,
  videoRoomActor,
} from '../actors/meeting';
import { coachMeetingMachine, coachMeetingStartMachine } from '../coach-meeting.machine';
import type { RouteEffects } from './effects';

/** The coach meeting pages' machines wired to the API, the video room and the router. */

const coachMeetingPath = (code: string) => `/coach/meeting/${encodeURIComponent(code)}`;

/** `code` is the meeting of the page: its join and finished pages are beside it. */
export const wireCoachMeeting = ({ api, navigate }: RouteEffects, code: string) =>
  coachMeetingMachine.provide({
    actors: {
      lookupCoachMeeting: lookupCoachMeetingActor(api),
      fetchCoachToken: fetchCoachTokenActor(api),
      recordFinished: recordFinishedActor(api),
      videoRoom: videoRoomActor(),
    },
    actions: {
      openRoom: () => navigate(`${coachMeetingPath(code)}/join`),
      showFinished: () => navigate(`${coachMeetingPath(code)}/finished`, { replace: true }),
    },
  });

export const wireCoachMeetingStart = ({ api, navigate }: RouteEffects) =>
  coachMeetingStartMachine.provide({
    actors: {
      loadUpcoming: loadUpcomingActor(api),
      lookupCoachMeeting: lookupCoachMeetingActor(api),
    },
    actions: { openMeeting: (_, p) => navigate(coachMeetingPath(p.code)) },
  });
