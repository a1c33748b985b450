import { assign, setup } from 'xstate';
import {
  failedOrInvalidCode,
  invalidCodeGuard,
  meetingActions,
  roomState,
  waitingState,
  msUntilOpen,
  notProvided,
  roomStub,
  tickMs,
  windowPhase,
  type MeetingError,
  type MeetingInfo,
  type MeetingToken,
} from './meeting/shared';

/**
 * The client's video meeting (`/meeting`, `/meeting/{meetingCode}`, public):
 * enteringCode → lookingUp → waiting (countdown until the room opens) → joining (room token)
 * → room.connecting → room.inMeeting → finished; with invalidCode, cancelled, over, external
 * (xodosign and arztkonsultation open a link) and failed (retry).
 *
 * Time comes from `input.now` (the real clock in the browser, a SimulatedClock in tests);
 * the countdown ticks with the named delay `countdownTick`.
 */
export interface ClientMeetingInput {
  /** The code from the URL; empty shows the code form. */
  code?: string | undefined;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Interface language handed to the video room. */
  lang?: string;
}

export interface ClientMeetingContext {
  code: string;
  info: MeetingInfo | null;
  token: MeetingToken | null;
  error: MeetingError | null;
  nowMs: number;
  clock: () => number;
  lang: string;
}

export type ClientMeetingEvent =
  | { type: 'code.change'; value: string }
  | { type: 'code.submit' }
  | { type: 'meeting.retry' }
  | { type: 'room.joined' }
  | { type: 'room.left' }
  | { type: 'room.failed' };

const trimmed = (code: string) => code.trim();

export const clientMeetingMachine = setup({
  types: {
    context: {} as ClientMeetingContext,
    events: {} as ClientMeetingEvent,
    input: {} as ClientMeetingInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'room'
      | 'cancelled'
      | 'codeForm'
      | 'connecting'
      | 'external'
      | 'failed'
      | 'lookingUp'
      | 'over'
      | 'waiting',
  },
  actors: {
    lookupMeeting: notProvided<MeetingInfo, { code: string }>('lookupMeeting'),
    fetchToken: notProvided<MeetingToken, { code: string }>('fetchToken'),
    videoRoom: roomStub,
  },
  actions: {
    /** Puts the code into the address (`/meeting/{code}`); provided by the view. */
    showCode: (_, _params: { code: string }) => undefined,
    /** Leads on to `/meetingfinished`; provided by the view. */
    showFinished: () => undefined,
    ...meetingActions<ClientMeetingContext, ClientMeetingEvent>(),
  },
  guards: {
    hasCode: ({ context }) => trimmed(context.code) !== '',
    cancelled: ({ event }) => (event as { output?: MeetingInfo }).output?.cancelled === true,
    external: ({ event }) => (event as { output?: MeetingInfo }).output?.meetingType !== 'jitsi',
    windowOver: ({ context }) =>
      context.info !== null && windowPhase(context.info, context.clock()) === 'over',
    windowOpen: ({ context }) =>
      context.info !== null && windowPhase(context.info, context.clock()) === 'open',
    invalidCode: invalidCodeGuard,
  },
  delays: {
    countdownTick: ({ context }) => (context.info ? tickMs(context.info, context.nowMs) : 1000),
  },
}).createMachine({
  id: 'clientMeeting',
  context: ({ input }) => {
    const clock = input.now ?? (() => Date.now());
    return {
      code: input.code ?? '',
      info: null,
      token: null,
      error: null,
      nowMs: clock(),
      clock,
      lang: input.lang ?? 'de',
    };
  },
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'hasCode', target: 'lookingUp' }, { target: 'enteringCode' }],
    },
    enteringCode: {
      tags: ['codeForm'],
      on: {
        'code.change': { actions: assign({ code: ({ event }) => event.value, error: null }) },
        'code.submit': [
          {
            guard: 'hasCode',
            target: 'lookingUp',
            actions: [
              assign({ code: ({ context }) => trimmed(context.code) }),
              { type: 'showCode', params: ({ context }) => ({ code: trimmed(context.code) }) },
            ],
          },
          { actions: assign({ error: { code: 'no_meeting_code' } }) },
        ],
      },
    },
    lookingUp: {
      tags: ['busy', 'lookingUp'],
      entry: assign({ error: null }),
      invoke: {
        id: 'lookupMeeting',
        src: 'lookupMeeting',
        input: ({ context }) => ({ code: context.code }),
        onDone: [
          {
            guard: 'cancelled',
            target: 'cancelled',
            actions: assign({ info: ({ event }) => event.output }),
          },
          {
            guard: 'external',
            target: 'external',
            actions: assign({ info: ({ event }) => event.output }),
          },
          { target: 'scheduled', actions: assign({ info: ({ event }) => event.output }) },
        ],
        onError: failedOrInvalidCode,
      },
    },
    /** Looked up: decide by the clock. */
    scheduled: {
      entry: 'readClock',
      always: [
        { guard: 'windowOver', target: 'over' },
        { guard: 'windowOpen', target: 'joining' },
        { target: 'waiting' },
      ],
    },
    waiting: waitingState,
    joining: {
      tags: ['busy', 'connecting'],
      invoke: {
        id: 'fetchToken',
        src: 'fetchToken',
        input: ({ context }) => ({ code: context.code }),
        onDone: { target: 'room', actions: assign({ token: ({ event }) => event.output }) },
        onError: failedOrInvalidCode,
      },
    },
    room: roomState('finished'),
    finished: { type: 'final', entry: 'showFinished' },
    invalidCode: {
      tags: ['error', 'codeForm'],
      on: {
        'code.change': {
          target: 'enteringCode',
          actions: assign({ code: ({ event }) => event.value, error: null }),
        },
      },
    },
    failed: {
      tags: ['error', 'failed'],
      on: { 'meeting.retry': { target: 'lookingUp' } },
    },
    cancelled: { tags: ['error', 'cancelled'] },
    over: { tags: ['error', 'over'] },
    external: { tags: ['external'] },
  },
});

/** Seconds until the room opens, for the countdown (0 once open). */
export const secondsUntilOpen = (context: Pick<ClientMeetingContext, 'info' | 'nowMs'>) =>
  context.info ? Math.ceil(msUntilOpen(context.info, context.nowMs) / 1000) : 0;
