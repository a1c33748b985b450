import { assign, fromPromise, setup } from 'xstate';
import { toClientError, type ClientAppointment, type ClientError } from '../lib/client-slots';
import { notProvided as notProvidedBy } from './shared/failures';

/**
 * `/client-signup/login` after signing in (issue #6): the client's upcoming initial
 * appointment with the ways to cancel or reschedule it, or the way to book one.
 *
 * loading → upcoming | none; failures offer a retry; an account without a client record
 * is sent to the sign-up.
 */

export interface AppointmentsContext {
  appointments: ClientAppointment[];
  error: ClientError | null;
}

export type AppointmentsEvent = { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('client-appointments', actor);

export const clientAppointmentsMachine = setup({
  types: {
    context: {} as AppointmentsContext,
    events: {} as AppointmentsEvent,
    tags: {} as 'busy' | 'error' | 'loadError' | 'loading' | 'noAppointment',
  },
  actors: {
    /** `GET /client/initial_appointment`: live ones that have not ended, soonest first. */
    loadAppointments: fromPromise<ClientAppointment[]>(notProvided('loadAppointments')),
  },
  guards: {
    hasAppointment: ({ event }) => ((event as { output?: unknown[] }).output?.length ?? 0) > 0,
  },
}).createMachine({
  id: 'clientAppointments',
  context: { appointments: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadAppointments',
        src: 'loadAppointments',
        onDone: [
          {
            guard: 'hasAppointment',
            target: 'upcoming',
            actions: assign({ appointments: ({ event }) => event.output, error: null }),
          },
          { target: 'none', actions: assign({ appointments: [], error: null }) },
        ],
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => toClientError(event.error) }) },
      },
    },
    loadFailed: { tags: ['error', 'loadError'], on: { retry: 'loading' } },
    upcoming: { on: { retry: 'loading' } },
    none: { tags: ['noAppointment'], on: { retry: 'loading' } },
  },
});
