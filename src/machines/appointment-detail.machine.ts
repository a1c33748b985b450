import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { machineErrorOf } from './shared/failures';

/**
 * One appointment for staff (`/appointments/{id}` and `/cancel-appointment/{id}`): the
 * appointment with its messages and business events, and its actions — cancel (after a
 * confirmation), mark or unmark as no-show, send the invitations again. After a change the
 * detail loads again (the messages it caused show up); the previous data stays on screen.
 */
type Appointment = components['schemas']['Appointment'];

export interface AppointmentDetail {
  appointment: Appointment;
  /** null: could not be loaded (the rest still shows). */
  communications: Array<components['schemas']['Communication']> | null;
  /** null: not loaded (the role may not read the audit trail) or failed. */
  events: Array<components['schemas']['BusinessEvent']> | null;
}

export interface AppointmentDetailInput {
  id: string;
  /** Admins and onboarding managers read the business events. */
  withEvents: boolean;
  /** `/cancel-appointment/{id}`: ask for the cancellation right away. */
  askToCancel?: boolean;
}

export interface AppointmentDetailContext {
  id: string;
  withEvents: boolean;
  askToCancel: boolean;
  detail: AppointmentDetail | null;
  error: { code: string } | null;
  /** The last action that failed, for its message. */
  actionError: { code: string } | null;
}

export type AppointmentDetailEvent =
  | { type: 'detail.retry' }
  | { type: 'cancel.request' }
  | { type: 'cancel.confirm' }
  | { type: 'cancel.abort' }
  | { type: 'noShow.toggle' }
  | { type: 'invites.resend' };

export type AppointmentAction = 'cancelled' | 'noShowChanged' | 'invitesSent';

const errorOf = (error: unknown) => ({ code: machineErrorOf(error).code });

export const appointmentDetailMachine = setup({
  types: {
    context: {} as AppointmentDetailContext,
    events: {} as AppointmentDetailEvent,
    input: {} as AppointmentDetailInput,
    tags: {} as 'busy' | 'error' | 'cancelling' | 'confirmingCancel' | 'loading',
  },
  actors: {
    loadDetail: fromPromise<AppointmentDetail, { id: string; withEvents: boolean }>(() => {
      throw new Error('appointment detail machine: provide the "loadDetail" actor');
    }),
    cancelAppointment: fromPromise<Appointment, { id: string }>(() => {
      throw new Error('appointment detail machine: provide the "cancelAppointment" actor');
    }),
    setNoShow: fromPromise<Appointment, { id: string; noShow: boolean }>(() => {
      throw new Error('appointment detail machine: provide the "setNoShow" actor');
    }),
    resendInvites: fromPromise<void, { id: string }>(() => {
      throw new Error('appointment detail machine: provide the "resendInvites" actor');
    }),
  },
  actions: {
    /** Tells the person an action succeeded (the page shows a toast). */
    notify: (_, _params: { action: AppointmentAction }) => undefined,
  },
  guards: {
    askToCancel: ({ context }) => context.askToCancel && context.detail?.appointment.cancelledAt === null,
    isLive: ({ context }) => context.detail?.appointment.cancelledAt === null,
  },
}).createMachine({
  id: 'appointmentDetail',
  context: ({ input }) => ({
    id: input.id,
    withEvents: input.withEvents,
    askToCancel: input.askToCancel ?? false,
    detail: null,
    error: null,
    actionError: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadDetail',
        src: 'loadDetail',
        input: ({ context }) => ({ id: context.id, withEvents: context.withEvents }),
        onDone: {
          target: 'ready',
          actions: assign({ detail: ({ event }) => event.output, error: null }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event.error) }) },
      },
    },
    failed: { tags: ['error'], on: { 'detail.retry': 'loading' } },
    ready: {
      initial: 'checking',
      states: {
        checking: {
          always: [
            { guard: 'askToCancel', target: 'confirmingCancel', actions: assign({ askToCancel: false }) },
            { target: 'idle' },
          ],
        },
        idle: {
          on: {
            'cancel.request': { guard: 'isLive', target: 'confirmingCancel', actions: assign({ actionError: null }) },
            'noShow.toggle': { target: 'settingNoShow', actions: assign({ actionError: null }) },
            'invites.resend': { guard: 'isLive', target: 'resending', actions: assign({ actionError: null }) },
          },
        },
        confirmingCancel: {
          tags: ['confirmingCancel'],
          on: { 'cancel.confirm': 'cancelling', 'cancel.abort': 'idle' },
        },
        cancelling: {
          tags: ['busy', 'cancelling'],
          invoke: {
            id: 'cancelAppointment',
            src: 'cancelAppointment',
            input: ({ context }) => ({ id: context.id }),
            onDone: {
              target: '#appointmentDetail.loading',
              actions: { type: 'notify', params: { action: 'cancelled' } },
            },
            onError: { target: 'idle', actions: assign({ actionError: ({ event }) => errorOf(event.error) }) },
          },
        },
        settingNoShow: {
          tags: ['busy'],
          invoke: {
            id: 'setNoShow',
            src: 'setNoShow',
            input: ({ context }) => ({ id: context.id, noShow: !context.detail!.appointment.noShow }),
            onDone: {
              target: '#appointmentDetail.loading',
              actions: { type: 'notify', params: { action: 'noShowChanged' } },
            },
            onError: { target: 'idle', actions: assign({ actionError: ({ event }) => errorOf(event.error) }) },
          },
        },
        resending: {
          tags: ['busy'],
          invoke: {
            id: 'resendInvites',
            src: 'resendInvites',
            input: ({ context }) => ({ id: context.id }),
            onDone: {
              target: '#appointmentDetail.loading',
              actions: { type: 'notify', params: { action: 'invitesSent' } },
            },
            onError: { target: 'idle', actions: assign({ actionError: ({ event }) => errorOf(event.error) }) },
          },
        },
      },
    },
  },
});
