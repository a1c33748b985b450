import type { Temporal } from '@js-temporal/polyfill';
import { assign, fromPromise, setup } from 'xstate';
import type { Role } from './session.machine';
import {
  picksCoach,
  bookingRequestOf,
  coachGuards,
  startingState,
  toScheduleError,
  type BookingRequest,
  type Appointment,
  type AppointmentType,
  type ClientSummary,
  type CoachOption,
  type FreeSlot,
  type ScheduleError,
} from './scheduling/shared';
import { mondayOf, windowOf } from '../../shared/time';
import { notProvided as notProvidedBy } from './shared/failures';

/**
 * `/appointments/new` and `/appointments/new-adhoc`: staff book an appointment for a client
 * into a free slot of a coach, from the same slot service clients book from.
 *
 * choosingClient (search, debounced) → choosingSlot (coach, type, duration, week of free
 * slots) → confirming → booking → booked. A slot someone else took meanwhile (409
 * `slot_taken`) leads back to fresh slots with the conflict explained. Coaches book for
 * themselves; admins and onboarding managers pick the coach.
 */

export type BookingKind = 'regular' | 'adhoc';

export const REGULAR_TYPES = [
  'initial',
  'first',
  'followup',
  'first-arztkonsultation',
  'followup-arztkonsultation',
] as const satisfies readonly AppointmentType[];

/** Default durations (domain.md): initial 30, first 60, follow-up 50, consultations 30. */
export const DEFAULT_DURATION: Record<AppointmentType, number> = {
  initial: 30,
  first: 60,
  followup: 50,
  'first-arztkonsultation': 30,
  'followup-arztkonsultation': 30,
  adhoc: 30,
};

/** Durations offered for ad-hoc appointments (the slot service takes 10..240 minutes). */
export const ADHOC_DURATIONS = [15, 30, 45, 60, 90, 120] as const;

export const MIN_QUERY_LENGTH = 2;

export interface SlotQuery {
  coachId: string;
  startDate: string;
  endDate: string;
  duration: number;
}

export type { BookingRequest } from './scheduling/shared';

export interface BookingContext {
  kind: BookingKind;
  canPickCoach: boolean;
  coaches: CoachOption[];
  coachId: string | null;
  query: string;
  results: ClientSummary[];
  client: ClientSummary | null;
  appointmentType: AppointmentType;
  duration: number;
  weekStart: Temporal.PlainDate;
  slots: FreeSlot[];
  slot: FreeSlot | null;
  /** The chosen slot was taken meanwhile: the fresh slots carry the explanation. */
  conflict: boolean;
  idempotencyKey: string | null;
  appointment: Appointment | null;
  error: ScheduleError | null;
}

export interface BookingInput {
  kind: BookingKind;
  role: Role;
  ownCoachId: string | null;
  today: Temporal.PlainDate;
}

export type BookingEvent =
  | { type: 'client.query'; query: string }
  | { type: 'client.select'; client: ClientSummary }
  | { type: 'client.change' }
  | { type: 'coach.select'; coachId: string }
  | { type: 'type.select'; appointmentType: AppointmentType }
  | { type: 'duration.select'; duration: number }
  | { type: 'week.previous' }
  | { type: 'week.next' }
  | { type: 'slot.select'; slot: FreeSlot }
  | { type: 'booking.confirm' }
  | { type: 'booking.back' }
  | { type: 'booking.another' }
  | { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('appointment-booking', actor);

export const bookingMachine = setup({
  types: {
    context: {} as BookingContext,
    events: {} as BookingEvent,
    input: {} as BookingInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'booked'
      | 'booking'
      | 'choosingClient'
      | 'choosingSlot'
      | 'clientResults'
      | 'clientSearchError'
      | 'coachesError'
      | 'confirm'
      | 'loadingCoaches'
      | 'loadingSlots'
      | 'needCoach'
      | 'noCoach'
      | 'searchingClients'
      | 'slotStep'
      | 'slotsError'
      | 'slotsReady',
  },
  actors: {
    loadCoaches: fromPromise<CoachOption[]>(notProvided('loadCoaches')),
    searchClients: fromPromise<ClientSummary[], { query: string }>(notProvided('searchClients')),
    loadSlots: fromPromise<FreeSlot[], SlotQuery>(notProvided('loadSlots')),
    createAppointment: fromPromise<Appointment, BookingRequest>(notProvided('createAppointment')),
  },
  delays: {
    /** Typing pause before the client search runs. */
    searchDebounce: 300,
  },
  actions: {
    /** Tells the person the appointment was booked (the page shows a toast). */
    notifyBooked: () => undefined,
    newIdempotencyKey: assign({ idempotencyKey: () => crypto.randomUUID() }),
  },
  guards: {
    ...coachGuards,
    queryLongEnough: ({ event }) =>
      event.type === 'client.query' && event.query.trim().length >= MIN_QUERY_LENGTH,
    isSlotTaken: ({ event }) => 'error' in event && toScheduleError(event.error).code === 'slot_taken',
  },
}).createMachine({
  id: 'booking',
  context: ({ input }) => ({
    kind: input.kind,
    canPickCoach: picksCoach(input.role),
    coaches: [],
    coachId: picksCoach(input.role) ? null : input.ownCoachId,
    query: '',
    results: [],
    client: null,
    appointmentType: input.kind === 'adhoc' ? 'adhoc' : 'followup',
    duration: DEFAULT_DURATION[input.kind === 'adhoc' ? 'adhoc' : 'followup'],
    weekStart: mondayOf(input.today),
    slots: [],
    slot: null,
    conflict: false,
    idempotencyKey: null,
    appointment: null,
    error: null,
  }),
  initial: 'starting',
  states: {
    starting: startingState('choosingClient'),
    loadingCoaches: {
      tags: ['busy', 'loadingCoaches'],
      invoke: {
        id: 'loadCoaches',
        src: 'loadCoaches',
        onDone: { target: 'choosingClient', actions: assign({ coaches: ({ event }) => event.output }) },
        onError: { target: 'coachesFailed', actions: assign({ error: ({ event }) => toScheduleError(event.error) }) },
      },
    },
    coachesFailed: { tags: ['error', 'coachesError'], on: { retry: 'loadingCoaches' } },
    /** A coach account without a coach record cannot book for itself. */
    noCoach: { tags: ['noCoach'] },
    choosingClient: {
      tags: ['choosingClient'],
      initial: 'idle',
      on: {
        'client.query': [
          {
            guard: 'queryLongEnough',
            target: '.debouncing',
            reenter: true,
            actions: assign({ query: ({ event }) => event.query }),
          },
          { target: '.idle', actions: assign({ query: ({ event }) => event.query, results: [] }) },
        ],
        'client.select': {
          target: 'choosingSlot',
          actions: assign({ client: ({ event }) => event.client, slot: null, conflict: false }),
        },
      },
      states: {
        idle: {},
        debouncing: { tags: ['searchingClients'], after: { searchDebounce: 'searching' } },
        searching: {
          tags: ['busy', 'searchingClients'],
          invoke: {
            id: 'searchClients',
            src: 'searchClients',
            input: ({ context }) => ({ query: context.query.trim() }),
            onDone: { target: 'results', actions: assign({ results: ({ event }) => event.output, error: null }) },
            onError: { target: 'searchFailed', actions: assign({ error: ({ event }) => toScheduleError(event.error) }) },
          },
        },
        results: { tags: ['clientResults'] },
        searchFailed: { tags: ['error', 'clientSearchError'], on: { retry: 'searching' } },
      },
    },
    choosingSlot: {
      tags: ['slotStep', 'choosingSlot'],
      initial: 'checking',
      on: {
        'client.change': { target: 'choosingClient', actions: assign({ slot: null, conflict: false }) },
        'coach.select': {
          guard: 'canPickCoach',
          target: '.checking',
          reenter: true,
          actions: assign({ coachId: ({ event }) => event.coachId, slot: null, conflict: false }),
        },
        'type.select': {
          guard: ({ context }) => context.kind === 'regular',
          target: '.checking',
          reenter: true,
          actions: assign({
            appointmentType: ({ event }) => event.appointmentType,
            duration: ({ event }) => DEFAULT_DURATION[event.appointmentType],
            slot: null,
            conflict: false,
          }),
        },
        'duration.select': {
          guard: ({ context, event }) => context.kind === 'adhoc' && event.duration >= 10 && event.duration <= 240,
          target: '.checking',
          reenter: true,
          actions: assign({ duration: ({ event }) => event.duration, slot: null, conflict: false }),
        },
        'week.previous': {
          target: '.checking',
          reenter: true,
          actions: assign({ weekStart: ({ context }) => context.weekStart.subtract({ days: 7 }), conflict: false }),
        },
        'week.next': {
          target: '.checking',
          reenter: true,
          actions: assign({ weekStart: ({ context }) => context.weekStart.add({ days: 7 }), conflict: false }),
        },
      },
      states: {
        checking: {
          always: [{ guard: 'hasCoach', target: 'loadingSlots' }, { target: 'needCoach' }],
        },
        /** A manager has not picked the coach yet. */
        needCoach: { tags: ['needCoach'] },
        loadingSlots: {
          tags: ['busy', 'loadingSlots'],
          invoke: {
            id: 'loadSlots',
            src: 'loadSlots',
            input: ({ context }) => ({
              coachId: context.coachId!,
              duration: context.duration,
              ...windowOf(context.weekStart, 7),
            }),
            onDone: { target: 'slotsReady', actions: assign({ slots: ({ event }) => event.output, error: null }) },
            onError: { target: 'slotsFailed', actions: assign({ error: ({ event }) => toScheduleError(event.error) }) },
          },
        },
        slotsFailed: { tags: ['error', 'slotsError'], on: { retry: 'loadingSlots' } },
        slotsReady: {
          tags: ['slotsReady'],
          on: {
            'slot.select': {
              target: '#booking.confirming',
              // One key per chosen slot: a retry after a lost answer cannot book twice.
              actions: [assign({ slot: ({ event }) => event.slot, error: null }), 'newIdempotencyKey'],
            },
          },
        },
      },
    },
    confirming: {
      tags: ['slotStep', 'confirm'],
      on: {
        'booking.confirm': 'booking',
        'booking.back': { target: 'choosingSlot.slotsReady', actions: assign({ slot: null, error: null }) },
      },
    },
    booking: {
      tags: ['busy', 'slotStep', 'confirm', 'booking'],
      invoke: {
        id: 'createAppointment',
        src: 'createAppointment',
        input: ({ context }) => bookingRequestOf(context, context.appointmentType),
        onDone: {
          target: 'booked',
          actions: [assign({ appointment: ({ event }) => event.output, conflict: false, error: null }), 'notifyBooked'],
        },
        onError: [
          {
            guard: 'isSlotTaken',
            target: 'choosingSlot.loadingSlots',
            actions: assign({ conflict: true, slot: null, error: null }),
          },
          { target: 'confirming', actions: assign({ error: ({ event }) => toScheduleError(event.error) }) },
        ],
      },
    },
    booked: {
      tags: ['booked'],
      on: {
        'booking.another': {
          target: 'choosingClient',
          actions: assign({ client: null, query: '', results: [], slot: null, appointment: null, conflict: false }),
        },
      },
    },
  },
});
