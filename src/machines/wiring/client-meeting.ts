import { fetchClientTokenActor, lookupMeetingActor, videoRoomActor } from '../actors/meeting';
import { clientMeetingMachine } from '../client-meeting.machine';
import type { RouteEffects } from './effects';

/** The client meeting's machine wired to the API, the video room and the router. */

export const wireClientMeeting = ({ api, navigate }: RouteEffects) =>
  clientMeetingMachine.provide({
    actors: {
      lookupMeeting: lookupMeetingActor(api),
      fetchToken: fetchClientTokenActor(api),
      videoRoom: videoRoomActor(),
    },
    actions: {
      showCode: (_, p) => navigate(`/meeting/${encodeURIComponent(p.code)}`, { replace: true }),
      showFinished: () => navigate('/meetingfinished'),
    },
  });
