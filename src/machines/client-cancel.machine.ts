import { assign, fromPromise, setup } from 'xstate';
import { toClientError, type ClientError } from '../lib/client-slots';
import { appointmentLoad, codeOf, loadGuards, TOO_LATE } from './shared/client-appointment-change';
import { notProvided as notProvidedBy } from './shared/failures';

/**
 * `/client-signup/cancel-appointment/{appointmentId}`: a client cancels their
 * appointment — signed in by its id (`/client/initial_appointment/{id}`), or without signing
 * in by the meeting code from the invitation (`/appointment/meetingCode/{code}`, public).
 *
 * loading → confirming → cancelling → cancelled; already cancelled, too late (minimum notice
 * or started: the German explanation) and unknown appointments end in their own states.
 */

export type CancelTarget = { kind: 'own'; appointmentId: string } | { kind: 'code'; code: string };

/** What the page shows of the appointment, from either call. */
export interface CancelView {
  startDate: string;
  endDate: string;
  coachName: string;
  cancelled: boolean;
}

export interface CancelInput {
  target: CancelTarget;
  now: () => number;
}

export interface CancelContext {
  target: CancelTarget;
  now: () => number;
  appointment: CancelView | null;
  error: ClientError | null;
}

export type CancelEvent = { type: 'cancel.confirm' } | { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('client-cancel', actor);

const load = appointmentLoad<CancelContext, CancelEvent>((output: CancelView) => output);

export const cancelMachine = setup({
  types: {
    context: {} as CancelContext,
    events: {} as CancelEvent,
    input: {} as CancelInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'alreadyCancelled'
      | 'cancelled'
      | 'loadError'
      | 'loading'
      | 'notFound'
      | 'tooLate',
  },
  actors: {
    loadAppointment: fromPromise<CancelView, CancelTarget>(notProvided('loadAppointment')),
    cancelAppointment: fromPromise<CancelView, CancelTarget>(notProvided('cancelAppointment')),
  },
  guards: {
    ...loadGuards((output: CancelView) => output),
    tooLate: ({ event }) => TOO_LATE.includes(codeOf(event)),
    cancelledMeanwhile: ({ event }) => codeOf(event) === 'appointment_cancelled',
  },
}).createMachine({
  id: 'cancelAppointment',
  context: ({ input }) => ({
    target: input.target,
    now: input.now,
    appointment: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadAppointment',
        src: 'loadAppointment',
        input: ({ context }) => context.target,
        onDone: [
          ...load.ended('alreadyCancelled'),
          {
            target: 'confirming',
            actions: assign({ appointment: ({ event }) => event.output, error: null }),
          },
        ],
        onError: load.onError,
      },
    },
    ...load.states,
    alreadyCancelled: { tags: ['alreadyCancelled'] },
    tooLate: { tags: ['tooLate'] },
    confirming: {
      on: { 'cancel.confirm': { target: 'cancelling', actions: assign({ error: null }) } },
    },
    cancelling: {
      tags: ['busy'],
      invoke: {
        id: 'cancelAppointment',
        src: 'cancelAppointment',
        input: ({ context }) => context.target,
        onDone: {
          target: 'cancelled',
          actions: assign({ appointment: ({ event }) => event.output }),
        },
        onError: [
          { guard: 'tooLate', target: 'tooLate' },
          { guard: 'cancelledMeanwhile', target: 'alreadyCancelled' },
          {
            target: 'confirming',
            actions: assign({ error: ({ event }) => toClientError(event.error) }),
          },
        ],
      },
    },
    cancelled: { tags: ['cancelled'] },
  },
});
