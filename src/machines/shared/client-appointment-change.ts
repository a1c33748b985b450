import { assign, type DoneActorEvent, type ErrorActorEvent, type EventObject } from 'xstate';
import { toClientError, type ClientError } from '../../lib/client-slots';

/**
 * What a client's change of their own appointment (cancel it, move it) does alike before the
 * change: the appointment loads; a cancelled one or one that has started ends the flow in its
 * own state, an unknown one (or not the caller's) in `notFound`, any other failure offers
 * `retry`. Each machine takes the guards and states typed for itself.
 */

/** Too close to the start (minimum notice) or started: the page explains it in German. */
export const TOO_LATE = ['notice_period', 'appointment_started'];
/** Not there, or not the caller's: the page says the appointment was not found. */
export const NOT_FOUND = ['not_found', 'unauthorized', 'not_a_client'];

/** The code of a failed call's error event. */
export const codeOf = (event: unknown) => toClientError((event as { error?: unknown }).error).code;

/** What the guards read of the loaded appointment (`output` of the load). */
export interface LoadedAppointment {
  startDate: string;
  cancelled: boolean;
}

/** `isCancelled`, `hasStarted` (on the load's output) and `notFound` (on its failure). */
export const loadGuards = (appointmentOf: (output: never) => LoadedAppointment) => {
  const loaded = (event: unknown) => appointmentOf((event as { output: never }).output);
  return {
    isCancelled: ({ event }: { event: unknown }) => loaded(event).cancelled,
    hasStarted: ({ context, event }: { context: { now: () => number }; event: unknown }) =>
      Date.parse(loaded(event).startDate) <= context.now(),
    notFound: ({ event }: { event: unknown }) => NOT_FOUND.includes(codeOf(event)),
  };
};

/**
 * The load's ends, typed for the machine: `ended(cancelled)`, the first `onDone` branches (a
 * cancelled appointment goes to the state `cancelled` names, a started one to `tooLate`; both
 * keep the appointment for the page, as `shown` picks it out of the load's output);
 * `onError` (unknown → `notFound`, else the error kept → `loadFailed`) and the states it ends
 * in: `loadFailed` (`retry` loads again), `notFound`.
 */
export const appointmentLoad = <
  TContext extends { appointment: unknown; error: ClientError | null },
  TEvent extends EventObject,
>(
  shown: (output: never) => TContext['appointment'],
) => {
  const keep = assign<TContext, DoneActorEvent, undefined, TEvent, never>(
    ({ event }) => ({ appointment: shown(event.output as never) }) as Partial<TContext>,
  );
  return {
    ended: (cancelled: string) => [
      { guard: 'isCancelled' as const, target: cancelled, actions: keep },
      { guard: 'hasStarted' as const, target: 'tooLate', actions: keep },
    ],
    onError: [
      { guard: 'notFound' as const, target: 'notFound' },
      {
        target: 'loadFailed',
        actions: assign<TContext, ErrorActorEvent, undefined, TEvent, never>(
          ({ event }) => ({ error: toClientError(event.error) }) as Partial<TContext>,
        ),
      },
    ],
    states: {
      loadFailed: { tags: ['error' as const, 'loadError' as const], on: { retry: 'loading' } },
      notFound: { tags: ['notFound' as const] },
    },
  };
};
