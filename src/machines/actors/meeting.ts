import { fromCallback, fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import type {
  Appointment,
  CoachMeetingOverview,
  MeetingFinished,
  MeetingInfo,
  MeetingToken,
  RoomEvent,
  RoomInput,
} from '../meeting/shared';

/** The API calls and the video room of the meeting machines. */

/** One call by meeting code as an actor that answers the call's data. */
const byCode = <T>(call: (code: string, signal: AbortSignal) => Promise<{ data?: T }>) =>
  fromPromise<T, { code: string }>(
    async ({ input, signal }) => (await call(input.code, signal)).data!,
  );

export const lookupMeetingActor = (api: ApiClient) =>
  byCode<MeetingInfo>((clientMeetingCode, signal) =>
    api.GET('/appointment/meetingCode/{clientMeetingCode}', {
      params: { path: { clientMeetingCode } },
      signal,
    }),
  );

export const fetchClientTokenActor = (api: ApiClient) =>
  byCode<MeetingToken>((clientMeetingCode, signal) =>
    api.GET('/appointment/token/{clientMeetingCode}', {
      params: { path: { clientMeetingCode } },
      signal,
    }),
  );

export const lookupCoachMeetingActor = (api: ApiClient) =>
  byCode<CoachMeetingOverview>((coachMeetingCode, signal) =>
    api.GET('/appointment/coach/meetingCode/{coachMeetingCode}', {
      params: { path: { coachMeetingCode } },
      signal,
    }),
  );

export const fetchCoachTokenActor = (api: ApiClient) =>
  byCode<MeetingToken>((meetingCodeCoach, signal) =>
    api.GET('/appointment/authenticatedToken/{meetingCodeCoach}', {
      params: { path: { meetingCodeCoach } },
      signal,
    }),
  );

export const recordFinishedActor = (api: ApiClient) =>
  byCode<MeetingFinished>((coachMeetingCode, signal) =>
    api.POST('/appointment/coach/meetingCode/{coachMeetingCode}/finished', {
      params: { path: { coachMeetingCode } },
      signal,
    }),
  );

/**
 * `GET /appointments/upcoming` with the date-only forDate (the specification's validation rules).
 */
export const loadUpcomingActor = (api: ApiClient) =>
  fromPromise<Appointment[], { forDate: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/appointments/upcoming', {
      params: { query: { forDate: input.forDate.slice(0, 10) } },
      signal,
    });
    return data!.appointments;
  });

/* ------------------------------------------------------------------------------------------ */

/** The part of the Jitsi IFrame API we use (https://jitsi.github.io/handbook/docs/dev-guide/dev-guide-iframe). */
interface JitsiApi {
  addListener(event: string, listener: (...args: unknown[]) => void): void;
  dispose(): void;
}
type JitsiConstructor = new (domain: string, options: Record<string, unknown>) => JitsiApi;

const scripts = new Map<string, Promise<JitsiConstructor>>();

/** Loads the IFrame API script once per URL. */
function loadJitsi(doc: Document, url: string): Promise<JitsiConstructor> {
  let loading = scripts.get(url);
  if (!loading) {
    loading = new Promise<JitsiConstructor>((resolve, reject) => {
      const script = doc.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = () => {
        const ctor = (doc.defaultView as unknown as { JitsiMeetExternalAPI?: JitsiConstructor })
          ?.JitsiMeetExternalAPI;
        if (ctor) resolve(ctor);
        else reject(new Error('The Jitsi script defines no JitsiMeetExternalAPI'));
      };
      script.onerror = () => reject(new Error(`The Jitsi script did not load: ${url}`));
      doc.head.append(script);
    });
    loading.catch(() => scripts.delete(url));
    scripts.set(url, loading);
  }
  return loading;
}

/** Waits (a few frames at most) for the view to render the room's container. */
async function containerOf(doc: Document, id: string): Promise<HTMLElement> {
  for (let i = 0; i < 50; i++) {
    const element = doc.getElementById(id);
    if (element) return element;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No element #${id} for the video room`);
}

/**
 * The video room: the Jitsi IFrame API from the token's domain, in the view's container, with
 * the hidden room name and the JWT. Reports `room.joined` and `room.left` (hang-up or the
 * room closing); disposes the room when the machine leaves the state.
 */
export const videoRoomActor = (doc: Document = document) =>
  fromCallback<RoomEvent, RoomInput>(({ input, sendBack }) => {
    let api: JitsiApi | null = null;
    let stopped = false;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      sendBack({ type: 'room.left' });
    };
    void (async () => {
      const [Jitsi, parentNode] = await Promise.all([
        loadJitsi(doc, input.token.scriptUrl),
        containerOf(doc, input.containerId),
      ]);
      if (stopped) return;
      api = new Jitsi(input.token.domain, {
        roomName: input.token.roomName,
        ...(input.token.jwt ? { jwt: input.token.jwt } : {}),
        parentNode,
        width: '100%',
        height: '100%',
        lang: input.lang,
        userInfo: { displayName: input.token.displayName },
        configOverwrite: { prejoinConfig: { enabled: false }, disableDeepLinking: true },
      });
      api.addListener('videoConferenceJoined', () => sendBack({ type: 'room.joined' }));
      api.addListener('videoConferenceLeft', leave);
      api.addListener('readyToClose', leave);
    })().catch(() => {
      // Errors after the callback returned do not reach the machine by themselves.
      if (!stopped) sendBack({ type: 'room.failed' });
    });
    return () => {
      stopped = true;
      api?.dispose();
    };
  });
