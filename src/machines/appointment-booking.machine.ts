import { Temporal } from '@js-temporal/polyfill';
import { assign, fromPromise, sendTo, setup, type AnyActorRef } from 'xstate';
import {
  bookingRequestOf,
  coachGuards,
  startingState,
  toScheduleError,
  type Appointment,
  type AppointmentType,
  type ClientSummary,
  type CoachOption,
  type ScheduleError,
} from './scheduling/shared';
import {
  pickedSlot,
  slotPickerMachine,
  submittedResult,
  type SlotPickerInput,
} from './slot-picker.machine';
import { mondayOf, windowOf } from '../../shared/time';
import { notProvided as notProvidedBy } from './shared/failures';

/**
 * `/appointments/new` and `/appointments/new-adhoc`: staff book an appointment for a client
 * into a free slot of a coach, from the same slot service clients book from.
 *
 * choosingClient (search, debounced) → choosingSlot (coach, type, duration; the slot picker,
 * invoked as a child, owns the week of free slots, the choice, the confirmation, the booking
 * and a slot taken meanwhile) → booked. Coaches book for themselves; admins and onboarding
 * managers pick the coach. The coach, type and duration stay here (they outlive a change of
 * client) and reach the picker as `query.change`.
 */

export type BookingKind = 'regular' | 'adhoc';

export const REGULAR_TYPES = [
  'initial',
  'first',
  'followup',
  'first-arztkonsultation',
  'followup-arztkonsultation',
] as const satisfies readonly AppointmentType[];

/** Default durations (docs/domain.md): initial 30, first 60, follow-up 50, consultations 30. */
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

/** What the picker's slot call and the booking need besides the week: coach, type, length. */
export interface BookingQuery {
  coachId: string;
  appointmentType: AppointmentType;
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
  /** The week the picker shows (`YYYY-MM-DD`, a Monday); kept when the client changes. */
  weekStart: string;
  appointment: Appointment | null;
  error: ScheduleError | null;
}

export interface BookingInput {
  kind: BookingKind;
  /** Works for every coach (the session's `pickCoach` permission): picks the coach. */
  canPickCoach: boolean;
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
  | { type: 'booking.another' }
  | { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('appointment-booking', actor);

/** The picker's query: null until a manager has picked the coach. */
const queryOf = (context: BookingContext): BookingQuery | null =>
  context.coachId === null
    ? null
    : {
        coachId: context.coachId,
        appointmentType: context.appointmentType,
        duration: context.duration,
      };

/** The picker's input: the shown week of the coach's free slots, booked for the chosen client. */
export function bookingSlots(context: BookingContext): SlotPickerInput {
  return {
    query: queryOf(context) as SlotPickerInput['query'],
    window: (weekStart) => windowOf(Temporal.PlainDate.from(weekStart!), 7),
    weekStart: context.weekStart,
    errorOf: toScheduleError,
    request: ({ query, slot, idempotencyKey }) =>
      bookingRequestOf(
        { idempotencyKey, client: context.client, slot },
        (query as unknown as BookingQuery).appointmentType,
      ),
  };
}

/** The week the running picker shows (so a change of client keeps it); outside a running actor (the model graph) the stored one. */
const pickerWeek = ({ context, self }: { context: BookingContext; self: AnyActorRef }) => {
  const children = self.getSnapshot()?.children as
    Record<string, AnyActorRef | undefined> | undefined;
  const picker = children?.slotPicker?.getSnapshot() as
    { context?: { weekStart?: string | null } } | undefined;
  return picker?.context?.weekStart ?? context.weekStart;
};

export const bookingMachine = setup({
  types: {
    context: {} as BookingContext,
    events: {} as BookingEvent,
    input: {} as BookingInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'booked'
      | 'choosingClient'
      | 'choosingSlot'
      | 'clientResults'
      | 'clientSearchError'
      | 'coachesError'
      | 'loadingCoaches'
      | 'noCoach'
      | 'searchingClients'
      | 'slotStep',
  },
  actors: {
    loadCoaches: fromPromise<CoachOption[]>(notProvided('loadCoaches')),
    searchClients: fromPromise<ClientSummary[], { query: string }>(notProvided('searchClients')),
    /** Loads, chooses, confirms and books the slot (its `loadSlots` and `submit` come from the wiring). */
    slotPicker: slotPickerMachine,
  },
  delays: {
    /** Typing pause before the client search runs. */
    searchDebounce: 300,
  },
  actions: {
    /** Tells the person the appointment was booked (the page shows a toast). */
    notifyBooked: () => undefined,
    /** Tells the picker the coach, type or duration changed: it loads that week afresh. */
    changeQuery: sendTo('slotPicker', ({ context }) => ({
      type: 'query.change' as const,
      query: queryOf(context),
    })),
  },
  guards: {
    ...coachGuards,
    queryLongEnough: ({ event }) =>
      event.type === 'client.query' && event.query.trim().length >= MIN_QUERY_LENGTH,
    booked: pickedSlot,
  },
}).createMachine({
  id: 'booking',
  context: ({ input }) => ({
    kind: input.kind,
    canPickCoach: input.canPickCoach,
    coaches: [],
    coachId: input.canPickCoach ? null : input.ownCoachId,
    query: '',
    results: [],
    client: null,
    appointmentType: input.kind === 'adhoc' ? 'adhoc' : 'followup',
    duration: DEFAULT_DURATION[input.kind === 'adhoc' ? 'adhoc' : 'followup'],
    weekStart: mondayOf(input.today).toString(),
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
        onDone: {
          target: 'choosingClient',
          actions: assign({ coaches: ({ event }) => event.output }),
        },
        onError: {
          target: 'coachesFailed',
          actions: assign({ error: ({ event }) => toScheduleError(event.error) }),
        },
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
          actions: assign({ client: ({ event }) => event.client }),
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
            onDone: {
              target: 'results',
              actions: assign({ results: ({ event }) => event.output, error: null }),
            },
            onError: {
              target: 'searchFailed',
              actions: assign({ error: ({ event }) => toScheduleError(event.error) }),
            },
          },
        },
        results: { tags: ['clientResults'] },
        searchFailed: { tags: ['error', 'clientSearchError'], on: { retry: 'searching' } },
      },
    },
    choosingSlot: {
      tags: ['slotStep', 'choosingSlot'],
      invoke: {
        id: 'slotPicker',
        src: 'slotPicker',
        input: ({ context }) => bookingSlots(context),
        onDone: {
          guard: 'booked',
          target: 'booked',
          actions: [assign({ appointment: submittedResult<Appointment> }), 'notifyBooked'],
        },
      },
      exit: assign({ weekStart: pickerWeek }),
      on: {
        'client.change': 'choosingClient',
        'coach.select': {
          guard: 'canPickCoach',
          actions: [assign({ coachId: ({ event }) => event.coachId }), 'changeQuery'],
        },
        'type.select': {
          guard: ({ context }) => context.kind === 'regular',
          actions: [
            assign({
              appointmentType: ({ event }) => event.appointmentType,
              duration: ({ event }) => DEFAULT_DURATION[event.appointmentType],
            }),
            'changeQuery',
          ],
        },
        'duration.select': {
          guard: ({ context, event }) =>
            context.kind === 'adhoc' && event.duration >= 10 && event.duration <= 240,
          actions: [assign({ duration: ({ event }) => event.duration }), 'changeQuery'],
        },
      },
    },
    booked: {
      tags: ['booked'],
      on: {
        'booking.another': {
          target: 'choosingClient',
          actions: assign({ client: null, query: '', results: [], appointment: null }),
        },
      },
    },
  },
});
