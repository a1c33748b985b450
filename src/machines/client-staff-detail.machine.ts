import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { actionStates } from './confirm-action.machine';
import {
  detailActionCall,
  detailLoadStates,
  type RecordDetailContext,
  retryable,
} from './record-detail.machine';
import { machineErrorOf, notProvided as notProvidedBy, type MachineError } from './shared/failures';

/**
 * One client for staff (`/clients/{id}`): details, appointments and messages; close or reopen
 * the sessions (closing asks first), remind the client of the contract, and send the client a
 * sign-in link by e-mail (staff who open the client page). When the server
 * does not offer the reminder yet (501) the button goes away and the page says so.
 * Loading and its failure are record-detail's states, the actions confirm-action's pieces.
 */
type Client = components['schemas']['Client'];

export interface ClientDetail {
  client: Client;
  /** null: could not be loaded (the rest still shows). */
  appointments: { rows: Array<components['schemas']['Appointment']>; itemCount: number } | null;
  communications: Array<components['schemas']['Communication']> | null;
  /** The patient card's and the summaries' statuses; null/absent: not readable. */
  clinical?: components['schemas']['ClientClinicalStatus'] | null;
  /** Who read which clinical document (admins only); null/absent: not loaded. */
  accessLog?: components['schemas']['ClinicalAccessLogList'] | null;
}

export interface ClientDetailContext extends RecordDetailContext<ClientDetail> {
  actionError: MachineError | null;
  /** The server answered 501 to the contract reminder. */
  reminderUnavailable: boolean;
}

export type ClientDetailEvent =
  | { type: 'detail.retry' }
  | { type: 'sessions.close' }
  | { type: 'sessions.open' }
  | { type: 'close.confirm' }
  | { type: 'close.abort' }
  | { type: 'reminder.send' }
  | { type: 'signInLink.send' };

export type ClientAction = 'sessionsClosed' | 'sessionsOpened' | 'reminderSent' | 'signInLinkSent';

const notProvided = (actor: string) => notProvidedBy('client detail', actor);

const action = actionStates<ClientDetailContext, ClientDetailEvent>();

const actionCall = detailActionCall<ClientDetailContext, ClientDetailEvent>();

/** The sessions' call: its success is announced and the client loads again. */
const setSessions = (closed: boolean, tags: Array<'busy' | 'confirmClose' | 'closing'>) =>
  actionCall({
    tags,
    id: closed ? 'closeSessions' : 'openSessions',
    src: 'setSessionsClosed',
    input: ({ context }) => ({ id: context.id, closed }),
    action: closed ? ('sessionsClosed' as const) : ('sessionsOpened' as const),
    then: '#clientDetail.loading',
  });

export const clientStaffDetailMachine = setup({
  types: {
    context: {} as ClientDetailContext,
    events: {} as ClientDetailEvent,
    input: {} as { id: string },
    tags: {} as 'busy' | 'error' | 'closing' | 'confirmClose' | 'loading',
  },
  actors: {
    loadDetail: fromPromise<ClientDetail, { id: string }>(notProvided('loadDetail')),
    setSessionsClosed: fromPromise<Client, { id: string; closed: boolean }>(
      notProvided('setSessionsClosed'),
    ),
    sendContractReminder: fromPromise<{ sentAt: string }, { id: string }>(
      notProvided('sendContractReminder'),
    ),
    sendSignInLink: fromPromise<{ sentAt: string }, { id: string }>(notProvided('sendSignInLink')),
  },
  actions: {
    notify: (_, _params: { action: ClientAction }) => undefined,
  },
  guards: {
    retryable,
    sessionsOpen: ({ context }) => context.record?.client.sessionsClosedOn === null,
    sessionsClosed: ({ context }) =>
      context.record !== null && context.record.client.sessionsClosedOn !== null,
    reminderOffered: ({ context }) =>
      !context.reminderUnavailable && context.record?.client.hasNotSignedRequiredContract === true,
    // The link goes by e-mail: without an address there is nothing to send.
    hasEmail: ({ context }) => Boolean(context.record?.client.email),
    notImplemented: ({ event }) =>
      (event as { error?: { status?: unknown } }).error?.status === 501,
  },
}).createMachine({
  id: 'clientDetail',
  context: ({ input }) => ({
    id: input.id,
    record: null,
    error: null,
    actionError: null,
    reminderUnavailable: false,
  }),
  initial: 'loading',
  states: {
    ...detailLoadStates<ClientDetailContext, ClientDetailEvent>('ready'),
    ready: {
      initial: 'idle',
      states: {
        idle: action.offering('actionError', {
          'sessions.close': { guard: 'sessionsOpen', target: 'confirmingClose' },
          'sessions.open': { guard: 'sessionsClosed', target: 'opening' },
          'reminder.send': { guard: 'reminderOffered', target: 'reminding' },
          'signInLink.send': { guard: 'hasEmail', target: 'sendingSignInLink' },
        }),
        confirmingClose: action.asking({
          tags: ['confirmClose'],
          confirm: 'close.confirm',
          abort: 'close.abort',
          run: 'closing',
          back: 'idle',
        }),
        closing: setSessions(true, ['busy', 'confirmClose', 'closing']),
        opening: setSessions(false, ['busy']),
        // The record does not change, so it is not loaded again.
        sendingSignInLink: actionCall({
          tags: ['busy'],
          src: 'sendSignInLink',
          input: ({ context }) => ({ id: context.id }),
          action: 'signInLinkSent',
          then: 'idle',
        }),
        reminding: {
          tags: ['busy'],
          invoke: {
            id: 'sendContractReminder',
            src: 'sendContractReminder',
            input: ({ context }) => ({ id: context.id }),
            onDone: {
              target: '#clientDetail.loading',
              actions: { type: 'notify', params: { action: 'reminderSent' } },
            },
            onError: [
              // 501: the server does not offer it yet; the button goes, no error.
              {
                guard: 'notImplemented',
                target: 'idle',
                actions: assign({ reminderUnavailable: true }),
              },
              {
                target: 'idle',
                actions: assign({ actionError: ({ event }) => machineErrorOf(event.error) }),
              },
            ],
          },
        },
      },
    },
  },
});
