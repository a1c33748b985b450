import { Temporal } from '@js-temporal/polyfill';
import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import type { SlotQuery } from './appointment-booking.machine';
import { clientFormSchema, newClientValues } from '../forms/client-staff-form';
import { recordFormMachine } from './record-form.machine';
import { bookingRequestOf, toScheduleError, type BookingRequest } from './scheduling/shared';
import { mondayOf, windowOf } from '../../shared/time';

/**
 * `/pre-appointment/new` (onboarding managers): a new client and their initial appointment in
 * one flow. The client step is the record form (invoked as a child, so it validates and saves
 * like every form); then a week of free slots of the initial-meetings calendar (the pooled
 * calendar clients book from, with the same slot and booking calls as the scheduling screens),
 * a confirmation, and the booking. A slot taken meanwhile (409 `slot_taken`) leads back to
 * fresh slots with the conflict explained.
 */
type Client = components['schemas']['Client'];
type FreeSlot = components['schemas']['FreeSlot'];
type Appointment = components['schemas']['Appointment'];

/** The pooled calendar of coaches who take initial appointments. */
export const INITIAL_MEETINGS_CALENDAR = 'initial-meetings';
/** Initial appointments take 30 minutes (domain.md). */
export const INITIAL_DURATION = 30;
const ZONE = 'Europe/Berlin';

export interface PreAppointmentContext {
  weekStart: Temporal.PlainDate;
  client: Client | null;
  slots: FreeSlot[];
  slot: FreeSlot | null;
  conflict: boolean;
  idempotencyKey: string | null;
  appointment: Appointment | null;
  error: { code: string } | null;
}

export type PreAppointmentEvent =
  | { type: 'week.next' }
  | { type: 'week.previous' }
  | { type: 'slot.select'; slot: FreeSlot }
  | { type: 'booking.confirm' }
  | { type: 'booking.back' }
  | { type: 'retry' };


export const preAppointmentMachine = setup({
  types: {
    context: {} as PreAppointmentContext,
    events: {} as PreAppointmentEvent,
    input: {} as { today: Temporal.PlainDate },
    tags: {} as
      | 'busy'
      | 'error'
      | 'booked'
      | 'booking'
      | 'clientStep'
      | 'confirm'
      | 'slotsError'
      | 'slotsReady',
  },
  actors: {
    clientForm: recordFormMachine,
    loadSlots: fromPromise<FreeSlot[], SlotQuery>(() => {
      throw new Error('pre-appointment machine: provide the "loadSlots" actor');
    }),
    createAppointment: fromPromise<Appointment, BookingRequest>(() => {
      throw new Error('pre-appointment machine: provide the "createAppointment" actor');
    }),
  },
  actions: {
    notifyBooked: () => undefined,
  },
  guards: {
    isSlotTaken: ({ event }) => 'error' in event && toScheduleError(event.error).code === 'slot_taken',
    notBeforeThisWeek: ({ context }) => Temporal.PlainDate.compare(context.weekStart, mondayOf(Temporal.Now.plainDateISO(ZONE))) > 0,
  },
}).createMachine({
  id: 'preAppointment',
  context: ({ input }) => ({
    weekStart: mondayOf(input.today),
    client: null,
    slots: [],
    slot: null,
    conflict: false,
    idempotencyKey: null,
    appointment: null,
    error: null,
  }),
  initial: 'enteringClient',
  states: {
    enteringClient: {
      tags: ['clientStep'],
      invoke: {
        id: 'clientForm',
        src: 'clientForm',
        input: () => ({ id: null, schema: clientFormSchema, values: newClientValues() }),
        onDone: {
          target: 'choosingSlot',
          actions: assign({ client: ({ event }) => event.output.record as Client }),
        },
      },
    },
    choosingSlot: {
      initial: 'loading',
      on: {
        'week.next': {
          target: '.loading',
          reenter: true,
          actions: assign({ weekStart: ({ context }) => context.weekStart.add({ days: 7 }), conflict: false }),
        },
        'week.previous': {
          guard: 'notBeforeThisWeek',
          target: '.loading',
          reenter: true,
          actions: assign({ weekStart: ({ context }) => context.weekStart.subtract({ days: 7 }), conflict: false }),
        },
      },
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadSlots',
            src: 'loadSlots',
            input: ({ context }) => ({
              coachId: INITIAL_MEETINGS_CALENDAR,
              ...windowOf(context.weekStart, 7),
              duration: INITIAL_DURATION,
            }),
            onDone: { target: 'ready', actions: assign({ slots: ({ event }) => event.output, error: null }) },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => toScheduleError(event.error) }) },
          },
        },
        failed: { tags: ['error', 'slotsError'], on: { retry: 'loading' } },
        ready: {
          tags: ['slotsReady'],
          on: {
            'slot.select': {
              target: '#preAppointment.confirming',
              actions: assign({
                slot: ({ event }) => event.slot,
                error: null,
                // One key per chosen slot: a retry after a lost answer cannot book twice.
                idempotencyKey: () => crypto.randomUUID(),
              }),
            },
          },
        },
      },
    },
    confirming: {
      tags: ['confirm'],
      on: {
        'booking.confirm': 'booking',
        'booking.back': { target: 'choosingSlot.ready', actions: assign({ slot: null, error: null }) },
      },
    },
    booking: {
      tags: ['busy', 'confirm', 'booking'],
      invoke: {
        id: 'createAppointment',
        src: 'createAppointment',
        input: ({ context }) => bookingRequestOf(context, 'initial'),
        onDone: {
          target: 'booked',
          actions: [assign({ appointment: ({ event }) => event.output, error: null }), 'notifyBooked'],
        },
        onError: [
          {
            guard: 'isSlotTaken',
            target: 'choosingSlot.loading',
            actions: assign({ conflict: true, slot: null }),
          },
          { target: 'confirming', actions: assign({ error: ({ event }) => toScheduleError(event.error) }) },
        ],
      },
    },
    booked: { tags: ['booked'], type: 'final' },
  },
});
