import type { Temporal } from '@js-temporal/polyfill';
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { toScheduleError, type Appointment, type ScheduleError } from './scheduling/shared';
import type { InitialCalendar } from './scheduling/initial-pool';
import { mondayOf, windowOf } from '../../shared/time';
import { notProvided as notProvidedBy } from './shared/failures';
import { stepAnchor, type CalendarMode } from './calendar.machine';

/**
 * `/calendar/initial-meetings`: the pool of initial-meeting slots for onboarding managers and
 * admins, a week (Monday first, Berlin time) or a day, free and booked by coach. The whole
 * week around `anchor` loads in one request; the coach filter and the day/week switch only
 * change what is shown. Narrow screens always show a day. A booked appointment opens its
 * detail.
 */

export interface InitialCalendarQuery {
  startDate: string;
  endDate: string;
}

export interface InitialCalendarContext {
  /** The coach filter; null: every coach of the pool. */
  coachId: string | null;
  mode: CalendarMode;
  narrow: boolean;
  /** What a wide screen shows (the person's last choice). */
  wideMode: CalendarMode;
  anchor: Temporal.PlainDate;
  data: InitialCalendar;
  appointmentId: string | null;
  appointment: Appointment | null;
  error: ScheduleError | null;
}

export interface InitialCalendarInput {
  today: Temporal.PlainDate;
  narrow?: boolean;
}

export type InitialCalendarEvent =
  | { type: 'period.previous' }
  | { type: 'period.next' }
  | { type: 'period.today'; today: Temporal.PlainDate }
  | { type: 'viewport.change'; narrow: boolean }
  | { type: 'mode.select'; mode: CalendarMode }
  | { type: 'coach.select'; coachId: string | null }
  | { type: 'appointment.open'; appointmentId: string }
  | { type: 'detail.close' }
  | { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('initialCalendar', actor);

const EMPTY: InitialCalendar = { coaches: [], slots: [], events: [] };

// A day step in the day view, a week step in the week view; each step reads its week afresh
// (bookings change while the page is open).
const navigation = {
  'period.previous': { target: '#initialCalendar.loading', actions: 'previousPeriod' },
  'period.next': { target: '#initialCalendar.loading', actions: 'nextPeriod' },
  'period.today': { target: '#initialCalendar.loading', actions: 'thisPeriod' },
  // Everything of the week is loaded: filtering needs no request. (Not behind an open detail:
  // the dialog is modal.)
  'coach.select': { guard: 'isKnownCoach', actions: 'pickCoach' },
} as const;

export const initialCalendarMachine = setup({
  types: {
    context: {} as InitialCalendarContext,
    events: {} as InitialCalendarEvent,
    input: {} as InitialCalendarInput,
    tags: {} as 'busy' | 'error' | 'detail' | 'detailError' | 'loadingDetail' | 'loadingEvents',
  },
  actors: {
    loadCalendar: fromPromise<InitialCalendar, InitialCalendarQuery>(notProvided('loadCalendar')),
    loadAppointment: fromPromise<Appointment, { id: string }>(notProvided('loadAppointment')),
    /** Sends `viewport.change` when the screen turns narrow or wide. */
    watchViewport: fromCallback(() => undefined),
  },
  actions: {
    previousPeriod: assign({ anchor: ({ context }) => stepAnchor(context, -1) }),
    nextPeriod: assign({ anchor: ({ context }) => stepAnchor(context, 1) }),
    pickCoach: assign({
      coachId: ({ context, event }) =>
        event.type === 'coach.select' ? event.coachId : context.coachId,
    }),
    thisPeriod: assign({
      anchor: ({ context, event }) =>
        event.type === 'period.today' ? event.today : context.anchor,
    }),
  },
  guards: {
    isWide: ({ context }) => !context.narrow,
    /** Every coach (null) or one of the loaded week's pool. */
    isKnownCoach: ({ context, event }) =>
      event.type === 'coach.select' &&
      (event.coachId === null || context.data.coaches.some((c) => c.id === event.coachId)),
  },
}).createMachine({
  id: 'initialCalendar',
  context: ({ input }) => ({
    coachId: null,
    mode: input.narrow ? 'day' : 'week',
    narrow: input.narrow ?? false,
    wideMode: 'week',
    anchor: input.today,
    data: EMPTY,
    appointmentId: null,
    appointment: null,
    error: null,
  }),
  invoke: { id: 'watchViewport', src: 'watchViewport' },
  on: {
    'viewport.change': {
      actions: assign({
        narrow: ({ event }) => event.narrow,
        mode: ({ context, event }) => (event.narrow ? 'day' : context.wideMode),
      }),
    },
    'mode.select': {
      guard: 'isWide',
      actions: assign({ wideMode: ({ event }) => event.mode, mode: ({ event }) => event.mode }),
    },
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loadingEvents'],
      entry: assign({ error: null }),
      invoke: {
        id: 'loadCalendar',
        src: 'loadCalendar',
        input: ({ context }) => windowOf(mondayOf(context.anchor), 7),
        onDone: {
          target: 'ready',
          actions: assign({
            data: ({ event }) => event.output,
            // A coach who is no longer in the week's pool leaves the filter.
            coachId: ({ context, event }) =>
              event.output.coaches.some((c) => c.id === context.coachId) ? context.coachId : null,
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toScheduleError(event.error) }),
        },
      },
    },
    failed: {
      tags: ['error'],
      on: { retry: 'loading', ...navigation },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            ...navigation,
            'appointment.open': {
              target: 'detail',
              actions: assign({
                appointmentId: ({ event }) => event.appointmentId,
                appointment: null,
                error: null,
              }),
            },
          },
        },
        detail: {
          tags: ['detail'],
          initial: 'loadingDetail',
          on: {
            'detail.close': {
              target: 'idle',
              actions: assign({ appointmentId: null, appointment: null, error: null }),
            },
          },
          states: {
            loadingDetail: {
              tags: ['busy', 'loadingDetail'],
              invoke: {
                id: 'loadAppointment',
                src: 'loadAppointment',
                input: ({ context }) => ({ id: context.appointmentId! }),
                onDone: {
                  target: 'showing',
                  actions: assign({ appointment: ({ event }) => event.output }),
                },
                onError: {
                  target: 'detailFailed',
                  actions: assign({ error: ({ event }) => toScheduleError(event.error) }),
                },
              },
            },
            detailFailed: {
              tags: ['error', 'detailError'],
              on: { retry: { target: 'loadingDetail', actions: assign({ error: null }) } },
            },
            showing: {},
          },
        },
      },
    },
  },
});
