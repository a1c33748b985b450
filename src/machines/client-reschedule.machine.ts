import { assign, fromPromise, setup } from 'xstate';
import {
  INITIAL_MINUTES,
  slotWindow,
  toClientError,
  type ClientAppointment,
  type ClientError,
  type FreeSlot,
} from '../lib/client-slots';
import {
  appointmentLoad,
  loadGuards,
  NOT_FOUND,
  TOO_LATE,
} from './shared/client-appointment-change';
import { notProvided as notProvidedBy } from './shared/failures';
import {
  pickedSlot,
  pickingEndedWith,
  slotPickerMachine,
  submittedResult,
  type SlotPickerInput,
} from './slot-picker.machine';

/**
 * `/client-signup/reschedule-appointment/{appointmentId}`: the client moves their
 * initial appointment to another free slot. The server moves it in place (same id and meeting
 * codes) in one transaction, so a refused move changes nothing.
 *
 * The slots are those of this reschedule: each names the coach the move gets (the current
 * coach wherever free). The confirmation shows that coach, and the move asks for
 * exactly that coach, so the client never gets another coach than the one they confirmed (a
 * coach taken meanwhile is `slot_taken`).
 *
 * loading (the appointment and fresh slots) → choosing (the slot picker, a child: day, time,
 * confirm, move; a slot taken meanwhile reloads with the explanation) → moved; too late
 * (`notice_period`, `appointment_started`) and cancelled appointments end in their own states.
 */

export interface RescheduleInput {
  appointmentId: string;
  now: () => number;
}

export interface MoveRequest {
  appointmentId: string;
  idempotencyKey: string;
  startDate: string;
  /** The coach the confirmed slot named. */
  coachId: string;
}

export interface RescheduleContext {
  appointmentId: string;
  now: () => number;
  appointment: ClientAppointment | null;
  /** The slots loaded with the appointment (the picker starts with them). */
  slots: FreeSlot[];
  error: ClientError | null;
}

export type RescheduleEvent = { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('client-reschedule', actor);

type Person = FreeSlot['coach'];

/** The chosen slot's coach when it is not the appointment's coach now: the page says so. */
export function coachChange(context: {
  appointment: ClientAppointment | null;
  slot: FreeSlot | null;
}): { from: Person; to: Person } | null {
  const { appointment, slot } = context;
  if (!appointment || !slot || slot.coachId === appointment.coach.id) return null;
  return { from: appointment.coach, to: slot.coach };
}

/** The picker's input: this move's slots by day, moved with the confirmed slot's coach. */
export const rescheduleSlots = (context: RescheduleContext): SlotPickerInput => ({
  query: { duration: INITIAL_MINUTES, rescheduleOf: context.appointmentId },
  window: () => slotWindow(context.now()),
  slots: context.slots,
  endCodes: [...TOO_LATE, 'appointment_cancelled', ...NOT_FOUND],
  errorOf: toClientError,
  request: ({ slot, idempotencyKey }): MoveRequest => ({
    appointmentId: context.appointmentId,
    idempotencyKey,
    startDate: slot.startDate,
    coachId: slot.coachId,
  }),
});

type Loaded = { appointment: ClientAppointment; slots: FreeSlot[] };

const load = appointmentLoad<RescheduleContext, RescheduleEvent>(
  (output: Loaded) => output.appointment,
);

export const rescheduleMachine = setup({
  types: {
    context: {} as RescheduleContext,
    events: {} as RescheduleEvent,
    input: {} as RescheduleInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'cancelled'
      | 'loadError'
      | 'loading'
      | 'moved'
      | 'notFound'
      | 'picking'
      | 'tooLate',
  },
  actors: {
    /**
     * `GET /client/initial_appointment/{id}` and `GET /client/initial_appointment_slots` with
     * `rescheduleOf` (the slots of this move, each naming the coach it gets).
     */
    loadReschedule: fromPromise<
      Loaded,
      { appointmentId: string; startDate: string; endDate: string; duration: number }
    >(notProvided('loadReschedule')),
    slotPicker: slotPickerMachine,
  },
  guards: {
    ...loadGuards(({ appointment }: Loaded) => ({
      startDate: appointment.startDate,
      cancelled: appointment.cancelledAt != null,
    })),
    moved: pickedSlot,
    movedTooLate: pickingEndedWith(TOO_LATE),
    cancelledMeanwhile: pickingEndedWith(['appointment_cancelled']),
  },
}).createMachine({
  id: 'reschedule',
  context: ({ input }) => ({
    appointmentId: input.appointmentId,
    now: input.now,
    appointment: null,
    slots: [],
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadReschedule',
        src: 'loadReschedule',
        input: ({ context }) => ({
          appointmentId: context.appointmentId,
          ...slotWindow(context.now()),
          duration: INITIAL_MINUTES,
        }),
        onDone: [
          ...load.ended('cancelled'),
          {
            target: 'choosing',
            actions: assign({
              appointment: ({ event }) => event.output.appointment,
              slots: ({ event }) => event.output.slots,
              error: null,
            }),
          },
        ],
        onError: load.onError,
      },
    },
    ...load.states,
    cancelled: { tags: ['cancelled'] },
    /** Closer to the start than the minimum notice (or started): the German explanation. */
    tooLate: { tags: ['tooLate'] },
    choosing: {
      tags: ['picking'],
      invoke: {
        id: 'slotPicker',
        src: 'slotPicker',
        input: ({ context }) => rescheduleSlots(context),
        onDone: [
          {
            guard: 'moved',
            target: 'moved',
            actions: assign({ appointment: submittedResult<ClientAppointment> }),
          },
          { guard: 'movedTooLate', target: 'tooLate' },
          { guard: 'cancelledMeanwhile', target: 'cancelled' },
          { target: 'notFound' },
        ],
      },
    },
    moved: { tags: ['moved'] },
  },
});
