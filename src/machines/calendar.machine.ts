import type { Temporal } from '@js-temporal/polyfill';
import { assign, fromCallback, fromPromise, setup } from 'xstate';
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
import {
  toScheduleError,
  type Appointment,
  type CalendarEvent,
  type CalendarWeek,
  type CoachOption,
  type PrivateBusyTime,
  type PrivateCalendarState,
} from './scheduling/shared';
import { mondayOf, windowOf } from '../../shared/time';
import { notProvided as notProvidedBy } from './shared/failures';

/**
 * `/calendar`: a week (Monday first, Berlin time) of appointments, availability, blockers,
 * public holidays and the coaches' private busy times (from their connected calendars, shown
 * without any detail); a single day on narrow screens. Admins and onboarding managers filter by
 * coach; coaches see their own. An appointment opens its detail, which can cancel it after a
 * confirmation.
 *
 * The machine always loads the whole week around `anchor`; the day view shows one day of it.
 * The viewport actor reports narrow/wide (the view supplies it with matchMedia). Wide screens
 * may switch between week and day (the day view puts every coach in a column of their own);
 * narrow screens always show a day.
 */

export interface CalendarQuery {
  startDate: string;
  endDate: string;
  coachId: string | null;
}

export interface CalendarContext extends CalendarPeriodContext, AppointmentDialogContext {
  canPickCoach: boolean;
  coaches: CoachOption[];
  events: CalendarEvent[];
  /** When the coaches shown are privately busy (their connected calendars): times only. */
  privateBusy: PrivateBusyTime[];
  /** The coaches' calendar connections, so a failing one's copy age can be shown. */
  privateCalendars: PrivateCalendarState[];
  /** When the answer arrived (epoch ms): the copy ages are told from it, not from each render. */
  loadedAt: number;
}

export interface CalendarInput {
  /** Works for every coach (the session's `pickCoach` permission): picks the coach. */
  canPickCoach: boolean;
  today: Temporal.PlainDate;
  /** Narrow screen at start (the viewport actor reports changes). */
  narrow?: boolean;
}

export type CalendarEventType =
  | CalendarPeriodEvent
  | { type: 'appointment.open'; appointmentId: string }
  | { type: 'detail.close' }
  | { type: 'cancel.request' }
  | { type: 'cancel.confirm' }
  | { type: 'cancel.abort' }
  | { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('calendar', actor);

const period = calendarPeriod<CalendarContext, CalendarEventType>();
const dialog = appointmentDialog<CalendarContext, CalendarEventType>();

const navigation = {
  'period.previous': { target: '#calendar.loading', actions: 'previousPeriod' },
  'period.next': { target: '#calendar.loading', actions: 'nextPeriod' },
  'period.today': { target: '#calendar.loading', actions: 'thisPeriod' },
  'coach.select': { guard: 'canPickCoach', target: '#calendar.loading', actions: 'pickCoach' },
} as const;

export const calendarMachine = setup({
  types: {
    context: {} as CalendarContext,
    events: {} as CalendarEventType,
    input: {} as CalendarInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'cancelling'
      | 'confirmingCancel'
      | 'detail'
      | 'detailError'
      | 'eventsError'
      | 'loadingDetail'
      | 'loadingEvents',
  },
  actors: {
    loadCoaches: fromPromise<CoachOption[]>(notProvided('loadCoaches')),
    loadEvents: fromPromise<CalendarWeek, CalendarQuery>(notProvided('loadEvents')),
    loadAppointment: fromPromise<Appointment, { id: string }>(notProvided('loadAppointment')),
    cancelAppointment: fromPromise<Appointment, { id: string }>(notProvided('cancelAppointment')),
    /** Sends `viewport.change` when the screen turns narrow or wide. */
    watchViewport: fromCallback(() => undefined),
  },
  actions: {
    /** Tells the person the appointment was cancelled (the page shows a toast). */
    notifyCancelled: () => undefined,
    ...period.actions,
  },
  guards: {
    canPickCoach: ({ context }) => context.canPickCoach,
    ...period.guards,
    isCancellable: ({ context }) =>
      context.appointment !== null && context.appointment.cancelledAt === null,
  },
}).createMachine({
  id: 'calendar',
  context: ({ input }) => ({
    canPickCoach: input.canPickCoach,
    coaches: [],
    coachId: null,
    ...initialPeriod(input),
    events: [],
    privateBusy: [],
    privateCalendars: [],
    loadedAt: 0,
    ...noAppointment,
  }),
  invoke: { id: 'watchViewport', src: 'watchViewport' },
  on: period.on,
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'canPickCoach', target: 'loadingCoaches' }, { target: 'loading' }],
    },
    loadingCoaches: {
      tags: ['busy', 'loadingEvents'],
      invoke: {
        id: 'loadCoaches',
        src: 'loadCoaches',
        onDone: { target: 'loading', actions: assign({ coaches: ({ event }) => event.output }) },
        // Without the list the calendar still shows every coach; only the filter is missing.
        onError: { target: 'loading' },
      },
    },
    loading: {
      tags: ['busy', 'loadingEvents'],
      entry: assign({ error: null }),
      invoke: {
        id: 'loadEvents',
        src: 'loadEvents',
        input: ({ context }) => ({
          ...windowOf(mondayOf(context.anchor), 7),
          coachId: context.coachId,
        }),
        onDone: {
          target: 'ready',
          actions: assign({
            events: ({ event }) => event.output.events,
            privateBusy: ({ event }) => event.output.privateBusy,
            privateCalendars: ({ event }) => event.output.privateCalendars,
            loadedAt: () => Date.now(),
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toScheduleError(event.error) }),
        },
      },
    },
    failed: {
      tags: ['error', 'eventsError'],
      on: { retry: 'loading', ...navigation },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: { on: { ...navigation, 'appointment.open': dialog.open } },
        detail: {
          ...dialog.detail,
          states: {
            ...dialog.states,
            showing: {
              on: {
                'cancel.request': {
                  guard: 'isCancellable',
                  target: 'confirmingCancel',
                  actions: assign({ error: null }),
                },
              },
            },
            confirmingCancel: {
              tags: ['confirmingCancel'],
              on: {
                'cancel.confirm': 'cancelling',
                'cancel.abort': 'showing',
              },
            },
            cancelling: {
              tags: ['busy', 'cancelling'],
              invoke: {
                id: 'cancelAppointment',
                src: 'cancelAppointment',
                input: ({ context }) => ({ id: context.appointmentId! }),
                onDone: {
                  target: '#calendar.loading',
                  actions: [assign({ appointmentId: null, appointment: null }), 'notifyCancelled'],
                },
                onError: {
                  target: 'showing',
                  actions: assign({ error: ({ event }) => toScheduleError(event.error) }),
                },
              },
            },
          },
        },
      },
    },
  },
});
