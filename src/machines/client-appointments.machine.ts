import { assign, fromPromise, setup } from 'xstate';
import { toClientError, type ClientAppointment, type ClientError } from '../lib/client-slots';
import { notProvided as notProvidedBy } from './shared/failures';

/**
 * "Mein Termin" (`/mein-termin`): the signed-in client's upcoming initial
 * appointment with the ways to cancel or reschedule it, or the way to book one; while its
 * video room is open (the window the server sends, `joinableFrom`..`joinableUntil`) the way
 * into the meeting too.
 *
 * loading → upcoming | none; failures offer a retry. In `upcoming` the machine wakes when a
 * room opens or closes, so a page left open offers "Beitreten" at the right minute.
 */

export interface AppointmentsInput {
  /** The clock (tests set it). */
  now?: () => number;
}

export interface AppointmentsContext {
  appointments: ClientAppointment[];
  /** Ids of the appointments whose video room is open now. */
  joinable: string[];
  error: ClientError | null;
  now: () => number;
}

export type AppointmentsEvent = { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('client-appointments', actor);

/** The longest sleep before looking again (setTimeout's limit is about 24 days). */
const MAX_WAIT_MS = 6 * 3_600_000;

const roomOpen = (a: ClientAppointment, now: number) =>
  Date.parse(a.joinableFrom) <= now && now <= Date.parse(a.joinableUntil);

/** Milliseconds until the next room of `appointments` opens or closes (at least one second). */
export function untilRoomChange(appointments: readonly ClientAppointment[], now: number): number {
  const next = appointments
    .flatMap((a) => [Date.parse(a.joinableFrom), Date.parse(a.joinableUntil) + 1])
    .filter((at) => at > now)
    .reduce((soonest, at) => Math.min(soonest, at - now), MAX_WAIT_MS);
  return Math.max(1000, next);
}

export const clientAppointmentsMachine = setup({
  types: {
    context: {} as AppointmentsContext,
    events: {} as AppointmentsEvent,
    input: {} as AppointmentsInput | undefined,
    tags: {} as 'busy' | 'error' | 'loadError' | 'loading' | 'noAppointment',
  },
  actors: {
    /** `GET /client/initial_appointment`: live ones that have not ended, soonest first. */
    loadAppointments: fromPromise<ClientAppointment[]>(notProvided('loadAppointments')),
  },
  actions: {
    checkRooms: assign({
      joinable: ({ context }) =>
        context.appointments.filter((a) => roomOpen(a, context.now())).map((a) => a.id),
    }),
  },
  delays: {
    untilRoomChange: ({ context }) => untilRoomChange(context.appointments, context.now()),
  },
  guards: {
    hasAppointment: ({ event }) => ((event as { output?: unknown[] }).output?.length ?? 0) > 0,
  },
}).createMachine({
  id: 'clientAppointments',
  context: ({ input }) => ({
    appointments: [],
    joinable: [],
    error: null,
    now: input?.now ?? Date.now,
  }),
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
          { target: 'none', actions: assign({ appointments: [], joinable: [], error: null }) },
        ],
        onError: {
          target: 'loadFailed',
          actions: assign({ error: ({ event }) => toClientError(event.error) }),
        },
      },
    },
    loadFailed: { tags: ['error', 'loadError'], on: { retry: 'loading' } },
    upcoming: {
      entry: 'checkRooms',
      after: { untilRoomChange: { target: 'upcoming', reenter: true } },
      on: { retry: 'loading' },
    },
    none: { tags: ['noAppointment'], on: { retry: 'loading' } },
  },
});
