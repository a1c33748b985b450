import type { Temporal } from '@js-temporal/polyfill';
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import {
  toScheduleError,
  type Appointment,
  type CalendarEvent,
  type CalendarWeek,
  type CoachOption,
  type PrivateBusyTime,
  type PrivateCalendarState,
  type ScheduleError,
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

export type CalendarMode = 'week' | 'day';

export interface CalendarQuery {
  startDate: string;
  endDate: string;
  coachId: string | null;
}

export interface CalendarContext {
  canPickCoach: boolean;
  coaches: CoachOption[];
  /** The coach filter; null: every coach (managers) or the caller's own calendar (coaches). */
  coachId: string | null;
  mode: CalendarMode;
  /** The screen is narrow (phones): always the day view. */
  narrow: boolean;
  /** What a wide screen shows (the person's last choice). */
  wideMode: CalendarMode;
  /** The day shown (day view) or a day of the week shown (week view). */
  anchor: Temporal.PlainDate;
  events: CalendarEvent[];
  /** When the coaches shown are privately busy (their connected calendars): times only. */
  privateBusy: PrivateBusyTime[];
  /** The coaches' calendar connections, so a failing one's copy age can be shown. */
  privateCalendars: PrivateCalendarState[];
  /** When the answer arrived (epoch ms): the copy ages are told from it, not from each render. */
  loadedAt: number;
  appointmentId: string | null;
  appointment: Appointment | null;
  error: ScheduleError | null;
}

export interface CalendarInput {
  /** Works for every coach (the session's `pickCoach` permission): picks the coach. */
  canPickCoach: boolean;
  today: Temporal.PlainDate;
  /** Narrow screen at start (the viewport actor reports changes). */
  narrow?: boolean;
}

export type CalendarEventType =
  | { type: 'period.previous' }
  | { type: 'period.next' }
  | { type: 'period.today'; today: Temporal.PlainDate }
  | { type: 'viewport.change'; narrow: boolean }
  | { type: 'mode.select'; mode: CalendarMode }
  | { type: 'coach.select'; coachId: string | null }
  | { type: 'appointment.open'; appointmentId: string }
  | { type: 'detail.close' }
  | { type: 'cancel.request' }
  | { type: 'cancel.confirm' }
  | { type: 'cancel.abort' }
  | { type: 'retry' };

/** The days the current mode shows. */
export function visibleDays(
  context: Pick<CalendarContext, 'mode' | 'anchor'>,
): Temporal.PlainDate[] {
  if (context.mode === 'day') return [context.anchor];
  const monday = mondayOf(context.anchor);
  return Array.from({ length: 7 }, (_, i) => monday.add({ days: i }));
}

/** The anchor one period on (`1`) or back (`-1`): a day in the day view, else a week. */
export function stepAnchor(
  context: Pick<CalendarContext, 'mode' | 'anchor'>,
  direction: 1 | -1,
): Temporal.PlainDate {
  return context.anchor.add({ days: direction * (context.mode === 'day' ? 1 : 7) });
}

const notProvided = (actor: string) => notProvidedBy('calendar', actor);

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
    previousPeriod: assign({ anchor: ({ context }) => stepAnchor(context, -1) }),
    nextPeriod: assign({ anchor: ({ context }) => stepAnchor(context, 1) }),
    thisPeriod: assign({
      anchor: ({ context, event }) =>
        event.type === 'period.today' ? event.today : context.anchor,
    }),
    pickCoach: assign({
      coachId: ({ context, event }) =>
        event.type === 'coach.select' ? event.coachId : context.coachId,
    }),
  },
  guards: {
    canPickCoach: ({ context }) => context.canPickCoach,
    isWide: ({ context }) => !context.narrow,
    isCancellable: ({ context }) =>
      context.appointment !== null && context.appointment.cancelledAt === null,
  },
}).createMachine({
  id: 'calendar',
  context: ({ input }) => ({
    canPickCoach: input.canPickCoach,
    coaches: [],
    coachId: null,
    mode: input.narrow ? 'day' : 'week',
    narrow: input.narrow ?? false,
    wideMode: 'week',
    anchor: input.today,
    events: [],
    privateBusy: [],
    privateCalendars: [],
    loadedAt: 0,
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
    // The week is loaded whatever the mode, so switching needs no request.
    'mode.select': {
      guard: 'isWide',
      actions: assign({
        wideMode: ({ event }) => event.mode,
        mode: ({ event }) => event.mode,
      }),
    },
  },
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
