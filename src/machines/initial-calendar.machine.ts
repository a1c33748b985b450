import type { Temporal } from '@js-temporal/polyfill';
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { toScheduleError, type Appointment } from './scheduling/shared';
import {
  appointmentDialog,
  noAppointment,
  type AppointmentDialogContext,
} from './scheduling/appointment-dialog';
import {
  calendarPeriod,
  initialPeriod,
  type CalendarPeriodContext,
  type CalendarPeriodEvent,
} from './scheduling/calendar-period';
import type { InitialCalendar } from './scheduling/initial-pool';
import { mondayOf, windowOf } from '../../shared/time';
import { notProvided as notProvidedBy } from './shared/failures';

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

/** `coachId` null: every coach of the pool. */
export interface InitialCalendarContext extends CalendarPeriodContext, AppointmentDialogContext {
  data: InitialCalendar;
}

export interface InitialCalendarInput {
  today: Temporal.PlainDate;
  narrow?: boolean;
}

export type InitialCalendarEvent =
  | CalendarPeriodEvent
  | { type: 'appointment.open'; appointmentId: string }
  | { type: 'detail.close' }
  | { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('initialCalendar', actor);

const EMPTY: InitialCalendar = { coaches: [], slots: [], events: [] };

const period = calendarPeriod<InitialCalendarContext, InitialCalendarEvent>();
const dialog = appointmentDialog<InitialCalendarContext, InitialCalendarEvent>();

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
  actions: period.actions,
  guards: {
    ...period.guards,
    /** Every coach (null) or one of the loaded week's pool. */
    isKnownCoach: ({ context, event }) =>
      event.type === 'coach.select' &&
      (event.coachId === null || context.data.coaches.some((c) => c.id === event.coachId)),
  },
}).createMachine({
  id: 'initialCalendar',
  context: ({ input }) => ({
    coachId: null,
    ...initialPeriod(input),
    data: EMPTY,
    ...noAppointment,
  }),
  invoke: { id: 'watchViewport', src: 'watchViewport' },
  on: period.on,
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
        idle: { on: { ...navigation, 'appointment.open': dialog.open } },
        detail: {
          ...dialog.detail,
          states: { ...dialog.states, showing: {} },
        },
      },
    },
  },
});
