import { assign, setup } from 'xstate';
import {
  INITIAL_MINUTES,
  slotWindow,
  toClientError,
  type ClientAppointment,
} from '../lib/client-slots';
import {
  pickedSlot,
  pickingEndedWith,
  slotPickerMachine,
  submittedResult,
  type SlotPickerInput,
} from './slot-picker.machine';

/**
 * `/client-signup/appointment-selection`: the
 * signed-in client picks a free slot of the initial-meetings calendar over the next weeks.
 *
 * The slot picker (a child) loads the days with free slots, lets the client choose a day and
 * a time, confirm and book; a slot taken meanwhile (409 `slot_taken`, also `notice_period`)
 * loads fresh slots and says why. Each confirmed choice carries its own Idempotency-Key, so a
 * retried request books once. This machine shows the outcome: booked, a client who has an
 * initial appointment already (alreadyBooked), or an account without a client record.
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

export interface SelectionContext {
  now: () => number;
  appointment: ClientAppointment | null;
}

export type SelectionEvent = { type: 'calendar.download' };

const NOT_CLIENT = ['not_a_client', 'client_not_linked', 'unauthorized'];

/** The picker's input: the next weeks by day, booked as the client's initial appointment. */
export const selectionSlots = (now: () => number): SlotPickerInput => ({
  query: { duration: INITIAL_MINUTES },
  window: () => slotWindow(now()),
  conflictCodes: ['slot_taken', 'notice_period'],
  endCodes: ['initial_appointment_exists', ...NOT_CLIENT],
  errorOf: toClientError,
  request: ({ slot, idempotencyKey }): BookRequest => ({
    idempotencyKey,
    startDate: slot.startDate,
    durationMinutes: INITIAL_MINUTES,
  }),
});

export const appointmentSelectionMachine = setup({
  types: {
    context: {} as SelectionContext,
    events: {} as SelectionEvent,
    input: {} as SelectionInput,
    tags: {} as 'picking' | 'alreadyBooked' | 'booked' | 'notClient',
  },
  actors: {
    slotPicker: slotPickerMachine,
  },
  actions: {
    /** Hands the .ics of the booked appointment to the browser (the page provides it). */
    saveCalendar: (_, _params: { appointment: ClientAppointment }) => undefined,
  },
  guards: {
    booked: pickedSlot,
    alreadyBooked: pickingEndedWith(['initial_appointment_exists']),
  },
}).createMachine({
  id: 'appointmentSelection',
  context: ({ input }) => ({ now: input.now, appointment: null }),
  initial: 'picking',
  states: {
    picking: {
      tags: ['picking'],
      invoke: {
        id: 'slotPicker',
        src: 'slotPicker',
        input: ({ context }) => selectionSlots(context.now),
        onDone: [
          {
            guard: 'booked',
            target: 'booked',
            actions: assign({ appointment: submittedResult<ClientAppointment> }),
          },
          { guard: 'alreadyBooked', target: 'alreadyBooked' },
          // Signed in without a client record (or signed out meanwhile).
          { target: 'notClient' },
        ],
      },
    },
    booked: {
      tags: ['booked'],
      on: {
        'calendar.download': {
          actions: {
            type: 'saveCalendar',
            params: ({ context }) => ({ appointment: context.appointment! }),
          },
        },
      },
    },
    /** The client has a live initial appointment: change it from the login page. */
    alreadyBooked: { tags: ['alreadyBooked'] },
    notClient: { tags: ['notClient'] },
  },
});
