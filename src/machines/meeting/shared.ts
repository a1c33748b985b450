import { assign, fromCallback, fromPromise, type EventObject } from 'xstate';
import type { components } from '../../../shared/contract/product';
import {
  errorCodeOf,
  machineErrorOf,
  notProvided as notProvidedBy,
  type MachineError,
} from '../shared/failures';

/** Shared types and pure rules of the coach and client meeting machines. */

export type MeetingInfo = components['schemas']['MeetingInfo'];
export type MeetingToken = components['schemas']['MeetingToken'];
export type CoachMeetingOverview = components['schemas']['CoachMeetingOverview'];
export type MeetingFinished = components['schemas']['MeetingFinished'];
export type Appointment = components['schemas']['Appointment'];

/** A failure the page explains (`invalid_meeting_code`, `rate_limited`, `network_error`, …). */
export type MeetingError = Pick<MachineError, 'code'>;

/** Unknown codes (404) and malformed ones (400) are both an invalid meeting code. */
export const isInvalidCode = (error: unknown) => {
  const { status } = machineErrorOf(error);
  return status === 404 || status === 400;
};

export type WindowPhase = 'early' | 'open' | 'over';

/** Where `nowMs` lies relative to the joining window [from, until]. */
export function windowPhase(
  window: { joinableFrom: string; joinableUntil: string },
  nowMs: number,
): WindowPhase {
  if (nowMs < Date.parse(window.joinableFrom)) return 'early';
  if (nowMs > Date.parse(window.joinableUntil)) return 'over';
  return 'open';
}

/** Milliseconds until the window opens (0 when open or over). */
export const msUntilOpen = (window: { joinableFrom: string }, nowMs: number) =>
  Math.max(0, Date.parse(window.joinableFrom) - nowMs);

/** The countdown tick: once a second, or exactly when the window opens if that is sooner. */
export const tickMs = (window: { joinableFrom: string }, nowMs: number) =>
  Math.max(1, Math.min(1000, msUntilOpen(window, nowMs) || 1000));

/** Input of the video room actor: the token and where to put the room. */
export interface RoomInput {
  token: MeetingToken;
  /** id of the element the view renders for the room. */
  containerId: string;
  /** Interface language of the room. */
  lang: string;
}

/** What the room reports back to its machine. */
export type RoomEvent = { type: 'room.joined' } | { type: 'room.left' } | { type: 'room.failed' };

/** Declared by the machines; the real one (actors/meeting.ts) is provided by the views. */
export const roomStub = fromCallback<RoomEvent, RoomInput>(notProvidedBy('meeting', 'videoRoom'));

export const notProvided = <T, I>(name: string) =>
  fromPromise<T, I>(notProvidedBy('meeting', name));

/** The element id of the room container the meeting views render. */
export const ROOM_CONTAINER_ID = 'meeting-room';

/* ----------------------------------------------------------------------------------------- */
/* Pieces both meeting machines (client and coach) are built from.                           */

/** What the shared actions need of a meeting machine's context. */
interface MeetingContextBase {
  error: MeetingError | null;
  nowMs: number;
  clock: () => number;
}

/**
 * The named actions of the shared states below, for a machine's `setup({ actions })`:
 * `readClock` (take the time), `rejectCode` (invalid_meeting_code), `keepError` (the failed
 * call's code) and `videoUnavailable` (the room failed).
 */
export function meetingActions<TContext extends MeetingContextBase, TEvent extends EventObject>() {
  const set = (
    update: (args: { context: TContext; event: TEvent }) => Partial<MeetingContextBase>,
  ) =>
    assign<TContext, TEvent, undefined, TEvent, never>(
      (args) => update(args as { context: TContext; event: TEvent }) as Partial<TContext>,
    );
  return {
    readClock: set(({ context }) => ({ nowMs: context.clock() })),
    rejectCode: set(() => ({ error: { code: 'invalid_meeting_code' } })),
    keepError: set(({ event }) => ({
      error: { code: errorCodeOf((event as { error?: unknown }).error) },
    })),
    videoUnavailable: set(() => ({ error: { code: 'video_unavailable' } })),
  };
}

/** Guard: the failed call said the code is unknown or malformed. */
export const invalidCodeGuard = ({ event }: { event: EventObject }) =>
  isInvalidCode((event as { error?: unknown }).error);

/** `onError` of a look-up or token call: unknown code → invalidCode, else failed (retry). */
export const failedOrInvalidCode = [
  { guard: 'invalidCode', target: 'invalidCode', actions: 'rejectCode' },
  { target: 'failed', actions: 'keepError' },
] as const;

/** The countdown until the room opens: ticks with `countdownTick`, then joins (or is over). */
export const waitingState = {
  tags: ['waiting'],
  entry: 'readClock',
  always: [
    { guard: 'windowOpen', target: 'joining' },
    { guard: 'windowOver', target: 'over' },
  ],
  after: { countdownTick: { target: 'waiting', reenter: true } },
} as const;

const roomInput = ({
  context,
}: {
  context: { token: MeetingToken | null; lang: string };
}): RoomInput => ({
  token: context.token!,
  containerId: ROOM_CONTAINER_ID,
  lang: context.lang,
});

/** In the video room (connecting → inMeeting); leaving goes to `leftTarget`. */
export const roomState = <const T extends string>(leftTarget: T) =>
  ({
    tags: ['room'],
    invoke: {
      id: 'videoRoom',
      src: 'videoRoom',
      input: roomInput,
      onError: { target: 'failed', actions: 'videoUnavailable' },
    },
    initial: 'connecting',
    states: {
      connecting: { tags: ['busy', 'connecting'], on: { 'room.joined': { target: 'inMeeting' } } },
      inMeeting: {},
    },
    on: {
      'room.left': { target: leftTarget },
      'room.failed': { target: 'failed', actions: 'videoUnavailable' },
    },
  }) as const;
