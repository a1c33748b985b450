import { Temporal } from '@js-temporal/polyfill';
import { assign, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { clientFormSchema, newClientValues } from '../forms/client-staff-form';
import { recordFormMachine } from './record-form.machine';
import { bookingRequestOf, toScheduleError } from './scheduling/shared';
import {
  pickedSlot,
  slotPickerMachine,
  submittedResult,
  type SlotPickerInput,
} from './slot-picker.machine';
import { mondayOf, windowOf } from '../../shared/time';

/**
 * `/pre-appointment/new` (onboarding managers): a new client and their initial appointment in
 * one flow. The client step is the record form (invoked as a child, so it validates and saves
 * like every form); then the slot picker (a child too) shows a week of free slots of the
 * initial-meetings calendar (the pooled calendar clients book from, with the same slot and
 * booking calls as the scheduling screens), from this week on, and books the confirmed one; a
 * slot taken meanwhile (409 `slot_taken`) leads back to fresh slots with the conflict explained.
 */
type Client = components['schemas']['Client'];
type Appointment = components['schemas']['Appointment'];

/** The pooled calendar of coaches who take initial appointments. */
export const INITIAL_MEETINGS_CALENDAR = 'initial-meetings';
/** Initial appointments take 30 minutes (docs/domain.md). */
export const INITIAL_DURATION = 30;

export interface PreAppointmentContext {
  /** Berlin's date when the page opened: no week before this one is offered. */
  today: Temporal.PlainDate;
  client: Client | null;
  appointment: Appointment | null;
}

/** The picker's input for the client just saved. */
export function preAppointmentSlots(today: Temporal.PlainDate, client: Client): SlotPickerInput {
  const thisWeek = mondayOf(today).toString();
  return {
    query: { coachId: INITIAL_MEETINGS_CALENDAR, duration: INITIAL_DURATION },
    window: (weekStart) => windowOf(Temporal.PlainDate.from(weekStart ?? thisWeek), 7),
    weekStart: thisWeek,
    firstWeek: thisWeek,
    errorOf: toScheduleError,
    request: ({ slot, idempotencyKey }) =>
      bookingRequestOf({ idempotencyKey, client, slot }, 'initial'),
  };
}

export const preAppointmentMachine = setup({
  types: {
    context: {} as PreAppointmentContext,
    input: {} as { today: Temporal.PlainDate },
    tags: {} as 'booked' | 'clientStep' | 'slotStep',
  },
  actors: {
    clientForm: recordFormMachine,
    slotPicker: slotPickerMachine,
  },
  actions: {
    notifyBooked: () => undefined,
  },
  guards: {
    booked: pickedSlot,
  },
}).createMachine({
  id: 'preAppointment',
  context: ({ input }) => ({ today: input.today, client: null, appointment: null }),
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
      tags: ['slotStep'],
      invoke: {
        id: 'slotPicker',
        src: 'slotPicker',
        input: ({ context }) => preAppointmentSlots(context.today, context.client!),
        onDone: {
          guard: 'booked',
          target: 'booked',
          actions: [assign({ appointment: submittedResult<Appointment> }), 'notifyBooked'],
        },
      },
    },
    booked: { tags: ['booked'], type: 'final' },
  },
});
