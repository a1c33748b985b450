import { assign, type DoneActorEvent, type ErrorActorEvent, type EventObject } from 'xstate';
import { toScheduleError, type Appointment, type ScheduleError } from './shared';

/**
 * An appointment's dialog, as both calendars open it from the week: `appointment.open` loads
 * it (the machine's `loadAppointment` actor), a failure offers `retry`, `detail.close` closes
 * it. Each machine takes these pieces typed for itself and keeps its own `detail` state around
 * them, with what it offers once the appointment shows (the calendar: cancel it).
 */

export interface AppointmentDialogContext {
  appointmentId: string | null;
  appointment: Appointment | null;
  error: ScheduleError | null;
}

type Open = { type: 'appointment.open'; appointmentId: string };

/** The dialog closed: the machine's first context and the one after `detail.close`. */
export const noAppointment = { appointmentId: null, appointment: null, error: null };

export const appointmentDialog = <
  TContext extends AppointmentDialogContext,
  TEvent extends EventObject,
>() => ({
  /** From the idle calendar: the dialog opens on the appointment and loads it. */
  open: {
    target: 'detail',
    actions: assign<TContext, Open, undefined, TEvent, never>(
      ({ event }) =>
        ({
          appointmentId: event.appointmentId,
          appointment: null,
          error: null,
        }) as Partial<TContext>,
    ),
  },
  /** The `detail` state's own part: tagged `detail`; `detail.close` goes back to `idle`. */
  detail: {
    tags: ['detail' as const],
    initial: 'loadingDetail',
    on: {
      'detail.close': {
        target: 'idle',
        actions: assign<TContext, TEvent, undefined, TEvent, never>(
          () => ({ ...noAppointment }) as Partial<TContext>,
        ),
      },
    },
  },
  /** `loadingDetail` (then `showing`) and `detailFailed`; the machine adds `showing`. */
  states: {
    loadingDetail: {
      tags: ['busy' as const, 'loadingDetail' as const],
      invoke: {
        id: 'loadAppointment',
        src: 'loadAppointment' as const,
        input: ({ context }: { context: TContext }) => ({ id: context.appointmentId! }),
        onDone: {
          target: 'showing',
          actions: assign<TContext, DoneActorEvent, undefined, TEvent, never>(
            ({ event }) => ({ appointment: event.output as Appointment }) as Partial<TContext>,
          ),
        },
        onError: {
          target: 'detailFailed',
          actions: assign<TContext, ErrorActorEvent, undefined, TEvent, never>(
            ({ event }) => ({ error: toScheduleError(event.error) }) as Partial<TContext>,
          ),
        },
      },
    },
    detailFailed: {
      tags: ['error' as const, 'detailError' as const],
      on: {
        retry: {
          target: 'loadingDetail',
          actions: assign<TContext, TEvent, undefined, TEvent, never>(
            () => ({ error: null }) as Partial<TContext>,
          ),
        },
      },
    },
  },
});
