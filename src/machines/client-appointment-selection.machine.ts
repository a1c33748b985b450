import { assign, fromPromise, setup } from 'xstate';
import {
  berlinDay,
  INITIAL_MINUTES,
  slotWindow,
  toClientError,
  type ClientAppointment,
  type ClientError,
  type FreeSlot,
} from '../lib/client-slots';
import { notProvided as notProvidedBy } from './shared/failures';

/**
 * `/client-signup/appointment-selection` (issue #6, the "initial appointment calendar"): the
 * signed-in client picks a free slot of the initial-meetings calendar over the next weeks.
 *
 * loading → choosing (days with free slots; a day, then a time) → confirming → booking →
 * booked. A slot taken meanwhile (409 `slot_taken`, also `notice_period`) loads fresh slots
 * and says why; a client who has an initial appointment already is told so (alreadyBooked).
 * Each confirmed choice carries its own Idempotency-Key, so a retried request books once.
 */

export interface SelectionInput {
  /** Milliseconds since the epoch (SimulatedClock in tests). */
  now: () => number;
}

export interface BookRequest {
  idempotencyKey: string;
  startDate: string;
  durationMinutes: number;
}

export type SelectionConflict = 'slot_taken' | 'notice_period';

export interface SelectionContext {
  now: () => number;
  slots: FreeSlot[];
  day: string | null;
  slot: FreeSlot | null;
  conflict: SelectionConflict | null;
  idempotencyKey: string | null;
  appointment: ClientAppointment | null;
  error: ClientError | null;
}

export type SelectionEvent =
  | { type: 'day.select'; day: string }
  | { type: 'slot.select'; slot: FreeSlot }
  | { type: 'booking.confirm' }
  | { type: 'booking.back' }
  | { type: 'calendar.download' }
  | { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('client-appointment-selection', actor);

const codeOf = (event: unknown) => toClientError((event as { error?: unknown }).error).code;

export const appointmentSelectionMachine = setup({
  types: {
    context: {} as SelectionContext,
    events: {} as SelectionEvent,
    input: {} as SelectionInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'alreadyBooked'
      | 'booked'
      | 'confirm'
      | 'loadError'
      | 'noSlots'
      | 'notClient',
  },
  actors: {
    /** `GET /client/initial_appointment_slots` for the window. */
    loadSlots: fromPromise<FreeSlot[], { startDate: string; endDate: string; duration: number }>(
      notProvided('loadSlots'),
    ),
    /** `POST /client/book_initial_appointment` with the Idempotency-Key header. */
    bookAppointment: fromPromise<ClientAppointment, BookRequest>(notProvided('bookAppointment')),
  },
  actions: {
    /** Hands the .ics of the booked appointment to the browser (the page provides it). */
    saveCalendar: (_, _params: { appointment: ClientAppointment }) => undefined,
  },
  guards: {
    hasSlots: ({ event }) => (event as { output?: FreeSlot[] }).output?.length !== 0,
    slotGone: ({ event }) => ['slot_taken', 'notice_period'].includes(codeOf(event)),
    alreadyBooked: ({ event }) => codeOf(event) === 'initial_appointment_exists',
    notClient: ({ event }) => ['not_a_client', 'client_not_linked', 'unauthorized'].includes(codeOf(event)),
  },
}).createMachine({
  id: 'appointmentSelection',
  context: ({ input }) => ({
    now: input.now,
    slots: [],
    day: null,
    slot: null,
    conflict: null,
    idempotencyKey: null,
    appointment: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadSlots',
        src: 'loadSlots',
        input: ({ context }) => ({ ...slotWindow(context.now()), duration: INITIAL_MINUTES }),
        onDone: [
          {
            guard: 'hasSlots',
            target: 'choosing',
            actions: assign({
              slots: ({ event }) => event.output,
              // Keep the chosen day when it still has slots, else the first day with any.
              day: ({ context, event }) =>
                context.day && event.output.some((s) => berlinDay(s.startDate) === context.day)
                  ? context.day
                  : berlinDay(event.output[0]!.startDate),
              error: null,
            }),
          },
          { target: 'empty', actions: assign({ slots: [], error: null }) },
        ],
        onError: [
          { guard: 'notClient', target: 'notClient' },
          { target: 'loadFailed', actions: assign({ error: ({ event }) => toClientError(event.error) }) },
        ],
      },
    },
    loadFailed: { tags: ['error', 'loadError'], on: { retry: 'loading' } },
    /** No free slot in the next weeks. */
    empty: { tags: ['noSlots'], on: { retry: 'loading' } },
    /** Signed in without a client record (or signed out meanwhile). */
    notClient: { tags: ['notClient'] },
    choosing: {
      on: {
        'day.select': { actions: assign({ day: ({ event }) => event.day }) },
        'slot.select': {
          target: 'confirming',
          actions: assign({
            slot: ({ event }) => event.slot,
            conflict: null,
            error: null,
            // One key per chosen slot: a retry after a lost answer cannot book twice.
            idempotencyKey: () => crypto.randomUUID(),
          }),
        },
      },
    },
    confirming: {
      tags: ['confirm'],
      on: {
        'booking.confirm': { target: 'booking', actions: assign({ error: null }) },
        'booking.back': { target: 'choosing', actions: assign({ slot: null, error: null }) },
      },
    },
    booking: {
      tags: ['busy', 'confirm'],
      invoke: {
        id: 'bookAppointment',
        src: 'bookAppointment',
        input: ({ context }) => ({
          idempotencyKey: context.idempotencyKey!,
          startDate: context.slot!.startDate,
          durationMinutes: INITIAL_MINUTES,
        }),
        onDone: {
          target: 'booked',
          actions: assign({ appointment: ({ event }) => event.output, error: null }),
        },
        onError: [
          {
            guard: 'slotGone',
            target: 'loading',
            actions: assign({
              conflict: ({ event }) => codeOf(event) as SelectionConflict,
              slot: null,
            }),
          },
          { guard: 'alreadyBooked', target: 'alreadyBooked' },
          { guard: 'notClient', target: 'notClient' },
          { target: 'confirming', actions: assign({ error: ({ event }) => toClientError(event.error) }) },
        ],
      },
    },
    booked: {
      tags: ['booked'],
      on: {
        'calendar.download': {
          actions: { type: 'saveCalendar', params: ({ context }) => ({ appointment: context.appointment! }) },
        },
      },
    },
    /** The client has a live initial appointment: change it from the login page. */
    alreadyBooked: { tags: ['alreadyBooked'] },
  },
});
