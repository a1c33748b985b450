import { assign, setup } from 'xstate';
import {
  failedOrInvalidCode,
  invalidCodeGuard,
  meetingActions,
  roomState,
  waitingState,
  notProvided,
  roomStub,
  tickMs,
  windowPhase,
  type Appointment,
  type CoachMeetingOverview,
  type MeetingError,
  type MeetingFinished,
  type MeetingToken,
} from './meeting/shared';
import { roomIsOpen } from '../../shared/meeting-window';
import { errorCodeOf } from './shared/failures';

/** The coach page shows the first two upcoming appointments. */
export const UPCOMING_SHOWN = 2;

/**
 * Whether an appointment shows its join button at `nowMs`: exactly while the server lets the
 * room be entered (shared/meeting-window.ts).
 */
export function showsJoinButton(
  appointment: Pick<Appointment, 'startDate' | 'endDate'> & { cancelledAt?: string | null },
  nowMs: number,
) {
  return roomIsOpen(appointment, nowMs);
}

/** `forDate` of `GET /appointments/upcoming`: the date only (the first 10 characters). */
export const forDateOf = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

/* ------------------------------------------------------------------------------------------ */

/**
 * `/coach/meeting`: the first two upcoming appointments (refreshed every minute, so join
 * buttons appear on time) and the meeting-code form. A missing code is `no_meeting_code`; an
 * unknown code or a failed look-up `invalid_meeting_code` (the specification's validation rules).
 */
export interface CoachMeetingStartContext {
  upcoming: Appointment[];
  code: string;
  error: MeetingError | null;
  nowMs: number;
  clock: () => number;
}

export type CoachMeetingStartEvent =
  { type: 'code.change'; value: string } | { type: 'code.submit' } | { type: 'upcoming.retry' };

export const coachMeetingStartMachine = setup({
  types: {
    context: {} as CoachMeetingStartContext,
    events: {} as CoachMeetingStartEvent,
    input: {} as { now?: () => number },
    tags: {} as
      'busy' | 'error' | 'loadingUpcoming' | 'upcomingError' | 'upcomingLoaded' | 'checkingCode',
  },
  actors: {
    loadUpcoming: notProvided<Appointment[], { forDate: string }>('loadUpcoming'),
    lookupCoachMeeting: notProvided<CoachMeetingOverview, { code: string }>('lookupCoachMeeting'),
  },
  actions: {
    /** Goes to `/coach/meeting/{code}`; provided by the view. */
    openMeeting: (_, _params: { code: string }) => undefined,
    readClock: assign({ nowMs: ({ context }) => context.clock() }),
  },
  guards: {
    hasCode: ({ context }) => context.code.trim() !== '',
  },
  delays: { upcomingRefresh: 60_000 },
}).createMachine({
  id: 'coachMeetingStart',
  type: 'parallel',
  context: ({ input }) => {
    const clock = input.now ?? (() => Date.now());
    return { upcoming: [], code: '', error: null, nowMs: clock(), clock };
  },
  states: {
    upcoming: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy', 'loadingUpcoming'],
          entry: 'readClock',
          invoke: {
            id: 'loadUpcoming',
            src: 'loadUpcoming',
            input: ({ context }) => ({ forDate: forDateOf(context.nowMs) }),
            onDone: {
              target: 'loaded',
              actions: assign({ upcoming: ({ event }) => event.output.slice(0, UPCOMING_SHOWN) }),
            },
            onError: { target: 'failed' },
          },
        },
        loaded: {
          tags: ['upcomingLoaded'],
          entry: 'readClock',
          after: { upcomingRefresh: { target: 'loading' } },
        },
        failed: {
          tags: ['error', 'upcomingError'],
          on: { 'upcoming.retry': { target: 'loading' } },
        },
      },
    },
    codeForm: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'code.change': { actions: assign({ code: ({ event }) => event.value, error: null }) },
            'code.submit': [
              { guard: 'hasCode', target: 'checking' },
              { actions: assign({ error: { code: 'no_meeting_code' } }) },
            ],
          },
        },
        checking: {
          tags: ['busy', 'checkingCode'],
          entry: assign({ error: null }),
          invoke: {
            id: 'lookupCoachMeeting',
            src: 'lookupCoachMeeting',
            input: ({ context }) => ({ code: context.code.trim() }),
            onDone: {
              target: 'opened',
              actions: {
                type: 'openMeeting',
                params: ({ context }) => ({ code: context.code.trim() }),
              },
            },
            // Unknown code and failed look-up alike (one message, so a code cannot be probed); rate
            // limits keep their own text.
            onError: {
              target: 'editing',
              actions: assign({
                error: ({ event }) => ({
                  code:
                    errorCodeOf(event.error) === 'rate_limited'
                      ? 'rate_limited'
                      : 'invalid_meeting_code',
                }),
              }),
            },
          },
        },
        opened: { type: 'final' },
      },
    },
  },
});

/* ------------------------------------------------------------------------------------------ */

/**
 * The coach's meeting by coach code. `mode` is the page: `overview`
 * (`/coach/meeting/{code}`), `join` (`/coach/meeting/{code}/join`) or `finished`
 * (`/coach/meeting/{code}/finished`).
 *
 * lookingUp → overview | waiting (countdown) → joining (moderator token) → room.connecting →
 * room.inMeeting → left (to the finished page) ; finished page: recording → finished.
 * Errors: invalidCode, cancelled, over, external (link), failed (retry).
 */
export type CoachMeetingMode = 'overview' | 'join' | 'finished';

export interface CoachMeetingInput {
  code: string;
  mode: CoachMeetingMode;
  now?: () => number;
  lang?: string;
}

export interface CoachMeetingContext {
  code: string;
  mode: CoachMeetingMode;
  overview: CoachMeetingOverview | null;
  token: MeetingToken | null;
  finished: MeetingFinished | null;
  error: MeetingError | null;
  nowMs: number;
  clock: () => number;
  lang: string;
}

export type CoachMeetingEvent =
  | { type: 'meeting.join' }
  | { type: 'meeting.retry' }
  | { type: 'room.joined' }
  | { type: 'room.left' }
  | { type: 'room.failed' };

const phaseOf = (context: CoachMeetingContext) =>
  context.overview ? windowPhase(context.overview, context.clock()) : 'early';

export const coachMeetingMachine = setup({
  types: {
    context: {} as CoachMeetingContext,
    events: {} as CoachMeetingEvent,
    input: {} as CoachMeetingInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'room'
      | 'lookingUp'
      | 'overview'
      | 'waiting'
      | 'connecting'
      | 'recording'
      | 'finished'
      | 'invalidCode'
      | 'cancelled'
      | 'over'
      | 'external'
      | 'failed',
  },
  actors: {
    lookupCoachMeeting: notProvided<CoachMeetingOverview, { code: string }>('lookupCoachMeeting'),
    fetchCoachToken: notProvided<MeetingToken, { code: string }>('fetchCoachToken'),
    recordFinished: notProvided<MeetingFinished, { code: string }>('recordFinished'),
    videoRoom: roomStub,
  },
  actions: {
    /** Goes to `/coach/meeting/{code}/join`; provided by the view. */
    openRoom: () => undefined,
    /** Goes to `/coach/meeting/{code}/finished`; provided by the view. */
    showFinished: () => undefined,
    ...meetingActions<CoachMeetingContext, CoachMeetingEvent>(),
    keepOverview: assign({
      overview: ({ event }) => (event as unknown as { output: CoachMeetingOverview }).output,
    }),
  },
  guards: {
    modeIs: ({ context }, mode: CoachMeetingMode) => context.mode === mode,
    cancelled: ({ context }) => context.overview?.appointment.cancelledAt != null,
    external: ({ context }) => context.overview?.appointment.meetingType !== 'jitsi',
    windowOpen: ({ context }) => phaseOf(context) === 'open',
    windowOver: ({ context }) => phaseOf(context) === 'over',
    invalidCode: invalidCodeGuard,
  },
  delays: {
    countdownTick: ({ context }) =>
      context.overview ? tickMs(context.overview, context.nowMs) : 1000,
    overviewTick: 15_000,
  },
}).createMachine({
  id: 'coachMeeting',
  context: ({ input }) => {
    const clock = input.now ?? (() => Date.now());
    return {
      code: input.code.trim(),
      mode: input.mode,
      overview: null,
      token: null,
      finished: null,
      error: null,
      nowMs: clock(),
      clock,
      lang: input.lang ?? 'de',
    };
  },
  initial: 'lookingUp',
  states: {
    lookingUp: {
      tags: ['busy', 'lookingUp'],
      entry: assign({ error: null }),
      invoke: {
        id: 'lookupCoachMeeting',
        src: 'lookupCoachMeeting',
        input: ({ context }) => ({ code: context.code }),
        onDone: { target: 'found', actions: 'keepOverview' },
        onError: failedOrInvalidCode,
      },
    },
    /** Looked up: decide by page and clock. */
    found: {
      entry: 'readClock',
      always: [
        { guard: { type: 'modeIs', params: 'finished' }, target: 'recording' },
        { guard: { type: 'modeIs', params: 'overview' }, target: 'overview' },
        { guard: 'cancelled', target: 'cancelled' },
        { guard: 'external', target: 'external' },
        { guard: 'windowOver', target: 'over' },
        { guard: 'windowOpen', target: 'joining' },
        { target: 'waiting' },
      ],
    },
    overview: {
      tags: ['overview'],
      entry: 'readClock',
      after: { overviewTick: { target: 'overview', reenter: true } },
      on: {
        'meeting.join': {
          guard: 'windowOpen',
          actions: 'openRoom',
        },
      },
    },
    waiting: waitingState,
    joining: {
      tags: ['busy', 'connecting'],
      invoke: {
        id: 'fetchCoachToken',
        src: 'fetchCoachToken',
        input: ({ context }) => ({ code: context.code }),
        onDone: { target: 'room', actions: assign({ token: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'keepError' },
      },
    },
    room: roomState('left'),
    left: { type: 'final', entry: 'showFinished' },
    recording: {
      tags: ['busy', 'recording'],
      invoke: {
        id: 'recordFinished',
        src: 'recordFinished',
        input: ({ context }) => ({ code: context.code }),
        onDone: { target: 'finished', actions: assign({ finished: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'keepError' },
      },
    },
    finished: { tags: ['finished'], type: 'final' },
    invalidCode: { tags: ['error', 'invalidCode'] },
    cancelled: { tags: ['error', 'cancelled'] },
    over: { tags: ['error', 'over'] },
    external: { tags: ['external'] },
    failed: {
      tags: ['error', 'failed'],
      on: { 'meeting.retry': { target: 'lookingUp' } },
    },
  },
});
