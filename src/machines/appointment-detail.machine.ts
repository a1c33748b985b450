import { assign, fromPromise, setup } from 'xstate';
import { appointmentPhase, mayCancelOrInvite, mayMarkNoShow } from '../../shared/appointment-phase';
import type { components } from '../../shared/contract/product';
import { actionStates } from './confirm-action.machine';
import {
  detailActionCall,
  detailLoadStates,
  type RecordDetailContext,
  retryable,
} from './record-detail.machine';
import { notProvided as notProvidedBy, type MachineError } from './shared/failures';

/**
 * One appointment for staff (`/appointments/{id}` and `/cancel-appointment/{id}`): the
 * appointment with its messages and business events, and its actions — cancel (after a
 * confirmation), mark or unmark as no-show, send the invitations again. After a change the
 * detail loads again (the messages it caused show up); the previous data stays on screen.
 * Loading and its failure are record-detail's states, the actions confirm-action's pieces;
 * a failed action closes its question and shows its message above the buttons.
 * What is offered follows the appointment's times (shared/appointment-phase.ts, the rule the
 * server enforces): `offers` tags the phase (cancel and invitations until the end, no-show once
 * started, nothing when cancelled), and the same guards refuse the events.
 */
type Appointment = components['schemas']['Appointment'];

export interface AppointmentDetail {
  appointment: Appointment;
  /** null: could not be loaded (the rest still shows). */
  communications: Array<components['schemas']['Communication']> | null;
  /** null: not loaded (the role may not read the audit trail) or failed. */
  events: Array<components['schemas']['BusinessEvent']> | null;
  /** The client's clinical documents, statuses only; null/absent: not readable. */
  clinical?: components['schemas']['ClientClinicalStatus'] | null;
}

export interface AppointmentDetailInput {
  id: string;
  /** Admins and onboarding managers read the business events. */
  withEvents: boolean;
  /** `/cancel-appointment/{id}`: ask for the cancellation right away. */
  askToCancel?: boolean;
  /** The clock (epoch milliseconds); tests pass a fixed one. */
  now?: () => number;
}

export interface AppointmentDetailContext extends RecordDetailContext<AppointmentDetail> {
  withEvents: boolean;
  askToCancel: boolean;
  now: () => number;
  /** The last action that failed, for its message. */
  actionError: MachineError | null;
}

export type AppointmentDetailEvent =
  | { type: 'detail.retry' }
  | { type: 'cancel.request' }
  | { type: 'cancel.confirm' }
  | { type: 'cancel.abort' }
  | { type: 'noShow.toggle' }
  | { type: 'invites.resend' };

export type AppointmentAction = 'cancelled' | 'noShowChanged' | 'invitesSent';

const notProvided = (actor: string) => notProvidedBy('appointment detail', actor);

const action = actionStates<AppointmentDetailContext, AppointmentDetailEvent>();

const actionCall = detailActionCall<AppointmentDetailContext, AppointmentDetailEvent>();

/** An action's call: its success is announced and the appointment loads again. */
const call = <const TSrc extends 'cancelAppointment' | 'setNoShow' | 'resendInvites', TInput>(
  src: TSrc,
  done: AppointmentAction,
  input: (args: { context: AppointmentDetailContext }) => TInput,
  tags: Array<'busy' | 'cancelling'> = ['busy'],
) => actionCall({ tags, src, input, action: done, then: '#appointmentDetail.loading' });

const phaseOf = (context: AppointmentDetailContext) =>
  appointmentPhase(context.record!.appointment, context.now());

export const appointmentDetailMachine = setup({
  types: {
    context: {} as AppointmentDetailContext,
    events: {} as AppointmentDetailEvent,
    input: {} as AppointmentDetailInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'cancelling'
      | 'confirmingCancel'
      | 'loading'
      | 'offersCancel'
      | 'offersInvites'
      | 'offersNoShow',
  },
  actors: {
    loadDetail: fromPromise<AppointmentDetail, { id: string; withEvents: boolean }>(
      notProvided('loadDetail'),
    ),
    cancelAppointment: fromPromise<Appointment, { id: string }>(notProvided('cancelAppointment')),
    setNoShow: fromPromise<Appointment, { id: string; noShow: boolean }>(notProvided('setNoShow')),
    resendInvites: fromPromise<void, { id: string }>(notProvided('resendInvites')),
  },
  actions: {
    /** Tells the person an action succeeded (the page shows a toast). */
    notify: (_, _params: { action: AppointmentAction }) => undefined,
  },
  guards: {
    retryable,
    askToCancel: ({ context }) => context.askToCancel && mayCancelOrInvite(phaseOf(context)),
    mayCancelOrInvite: ({ context }) => mayCancelOrInvite(phaseOf(context)),
    mayMarkNoShow: ({ context }) => mayMarkNoShow(phaseOf(context)),
    isCancelled: ({ context }) => phaseOf(context) === 'cancelled',
    hasEnded: ({ context }) => phaseOf(context) === 'ended',
    hasStarted: ({ context }) => phaseOf(context) === 'underway',
  },
}).createMachine({
  id: 'appointmentDetail',
  context: ({ input }) => ({
    id: input.id,
    withEvents: input.withEvents,
    askToCancel: input.askToCancel ?? false,
    now: input.now ?? Date.now,
    record: null,
    error: null,
    actionError: null,
  }),
  initial: 'loading',
  states: {
    ...detailLoadStates<AppointmentDetailContext, AppointmentDetailEvent, { withEvents: boolean }>(
      'ready',
      (c) => ({
        withEvents: c.withEvents,
      }),
    ),
    ready: {
      type: 'parallel',
      states: {
        offers: {
          initial: 'checking',
          states: {
            checking: {
              always: [
                { guard: 'isCancelled', target: 'cancelled' },
                { guard: 'hasEnded', target: 'ended' },
                { guard: 'hasStarted', target: 'underway' },
                { target: 'upcoming' },
              ],
            },
            upcoming: { tags: ['offersCancel', 'offersInvites'] },
            underway: { tags: ['offersCancel', 'offersInvites', 'offersNoShow'] },
            ended: { tags: ['offersNoShow'] },
            cancelled: {},
          },
        },
        action: {
          initial: 'checking',
          states: {
            checking: {
              always: [
                {
                  guard: 'askToCancel',
                  target: 'confirmingCancel',
                  actions: assign({ askToCancel: false }),
                },
                { target: 'idle' },
              ],
            },
            idle: action.offering('actionError', {
              'cancel.request': { guard: 'mayCancelOrInvite', target: 'confirmingCancel' },
              'noShow.toggle': { guard: 'mayMarkNoShow', target: 'settingNoShow' },
              'invites.resend': { guard: 'mayCancelOrInvite', target: 'resending' },
            }),
            confirmingCancel: action.asking({
              tags: ['confirmingCancel'],
              confirm: 'cancel.confirm',
              abort: 'cancel.abort',
              run: 'cancelling',
              back: 'idle',
            }),
            cancelling: call(
              'cancelAppointment',
              'cancelled',
              ({ context }) => ({ id: context.id }),
              ['busy', 'cancelling'],
            ),
            settingNoShow: call('setNoShow', 'noShowChanged', ({ context }) => ({
              id: context.id,
              noShow: !context.record!.appointment.noShow,
            })),
            resending: call('resendInvites', 'invitesSent', ({ context }) => ({ id: context.id })),
          },
        },
      },
    },
  },
});
