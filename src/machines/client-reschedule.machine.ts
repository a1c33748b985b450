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
 * `/client-signup/reschedule-appointment/{appointmentId}` (issue #6): the client moves their
 * initial appointment to another free slot. The server moves it in place (same id and meeting
 * codes) in one transaction, so a refused move changes nothing.
 *
 * The slots are those of this reschedule: each names the coach the move gets (the current
 * coach wherever free, issue 17). The confirmation shows that coach, and the move asks for
 * exactly that coach, so the client never gets another coach than the one they confirmed (a
 * coach taken meanwhile is `slot_taken`).
 *
 * loading (the appointment and fresh slots) → choosing → confirming → moving → moved; a slot
 * taken meanwhile reloads with the explanation; too late (`notice_period`,
 * `appointment_started`) and cancelled appointments end in their own states.
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
  slots: FreeSlot[];
  day: string | null;
  slot: FreeSlot | null;
  conflict: boolean;
  idempotencyKey: string | null;
  error: ClientError | null;
}

export type RescheduleEvent =
  | { type: 'day.select'; day: string }
  | { type: 'slot.select'; slot: FreeSlot }
  | { type: 'move.confirm' }
  | { type: 'move.back' }
  | { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('client-reschedule', actor);

type Person = FreeSlot['coach'];

/** The chosen slot's coach when it is not the appointment's coach now: the page says so. */
export function coachChange(
  context: Pick<RescheduleContext, 'appointment' | 'slot'>,
): { from: Person; to: Person } | null {
  const { appointment, slot } = context;
  if (!appointment || !slot || slot.coachId === appointment.coach.id) return null;
  return { from: appointment.coach, to: slot.coach };
}

const codeOf = (event: unknown) => toClientError((event as { error?: unknown }).error).code;

export const rescheduleMachine = setup({
  types: {
    context: {} as RescheduleContext,
    events: {} as RescheduleEvent,
    input: {} as RescheduleInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'cancelled'
      | 'confirm'
      | 'loadError'
      | 'loading'
      | 'moved'
      | 'notFound'
      | 'tooLate',
  },
  actors: {
    /**
     * `GET /client/initial_appointment/{id}` and `GET /client/initial_appointment_slots` with
     * `rescheduleOf` (the slots of this move, each naming the coach it gets).
     */
    loadReschedule: fromPromise<
      { appointment: ClientAppointment; slots: FreeSlot[] },
      { appointmentId: string; startDate: string; endDate: string; duration: number }
    >(notProvided('loadReschedule')),
    /** `PUT /client/initial_appointment/{id}` with the Idempotency-Key header. */
    moveAppointment: fromPromise<ClientAppointment, MoveRequest>(notProvided('moveAppointment')),
  },
  guards: {
    isCancelled: ({ event }) =>
      (event as { output?: { appointment: ClientAppointment } }).output?.appointment.cancelledAt != null,
    hasStarted: ({ context, event }) => {
      const a = (event as { output?: { appointment: ClientAppointment } }).output?.appointment;
      return a !== undefined && Date.parse(a.startDate) <= context.now();
    },
    slotTaken: ({ event }) => codeOf(event) === 'slot_taken',
    tooLate: ({ event }) => ['notice_period', 'appointment_started'].includes(codeOf(event)),
    cancelledMeanwhile: ({ event }) => codeOf(event) === 'appointment_cancelled',
    notFound: ({ event }) => ['not_found', 'unauthorized', 'not_a_client'].includes(codeOf(event)),
  },
}).createMachine({
  id: 'reschedule',
  context: ({ input }) => ({
    appointmentId: input.appointmentId,
    now: input.now,
    appointment: null,
    slots: [],
    day: null,
    slot: null,
    conflict: false,
    idempotencyKey: null,
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
          {
            guard: 'isCancelled',
            target: 'cancelled',
            actions: assign({ appointment: ({ event }) => event.output.appointment }),
          },
          {
            guard: 'hasStarted',
            target: 'tooLate',
            actions: assign({ appointment: ({ event }) => event.output.appointment }),
          },
          {
            target: 'choosing',
            actions: assign({
              appointment: ({ event }) => event.output.appointment,
              slots: ({ event }) => event.output.slots,
              day: ({ context, event }) =>
                context.day && event.output.slots.some((s) => berlinDay(s.startDate) === context.day)
                  ? context.day
                  : event.output.slots[0]
                    ? berlinDay(event.output.slots[0].startDate)
                    : null,
              error: null,
            }),
          },
        ],
        onError: [
          { guard: 'notFound', target: 'notFound' },
          { target: 'loadFailed', actions: assign({ error: ({ event }) => toClientError(event.error) }) },
        ],
      },
    },
    loadFailed: { tags: ['error', 'loadError'], on: { retry: 'loading' } },
    notFound: { tags: ['notFound'] },
    cancelled: { tags: ['cancelled'] },
    /** Closer to the start than the minimum notice (or started): the German explanation. */
    tooLate: { tags: ['tooLate'] },
    choosing: {
      on: {
        retry: 'loading',
        'day.select': { actions: assign({ day: ({ event }) => event.day }) },
        'slot.select': {
          target: 'confirming',
          actions: assign({
            slot: ({ event }) => event.slot,
            conflict: false,
            error: null,
            idempotencyKey: () => crypto.randomUUID(),
          }),
        },
      },
    },
    confirming: {
      tags: ['confirm'],
      on: {
        'move.confirm': { target: 'moving', actions: assign({ error: null }) },
        'move.back': { target: 'choosing', actions: assign({ slot: null, error: null }) },
      },
    },
    moving: {
      tags: ['busy', 'confirm'],
      invoke: {
        id: 'moveAppointment',
        src: 'moveAppointment',
        input: ({ context }) => ({
          appointmentId: context.appointmentId,
          idempotencyKey: context.idempotencyKey!,
          startDate: context.slot!.startDate,
          coachId: context.slot!.coachId,
        }),
        onDone: {
          target: 'moved',
          actions: assign({ appointment: ({ event }) => event.output, error: null }),
        },
        onError: [
          { guard: 'slotTaken', target: 'loading', actions: assign({ conflict: true, slot: null }) },
          { guard: 'tooLate', target: 'tooLate' },
          { guard: 'cancelledMeanwhile', target: 'cancelled' },
          { target: 'confirming', actions: assign({ error: ({ event }) => toClientError(event.error) }) },
        ],
      },
    },
    moved: { tags: ['moved'] },
  },
});
