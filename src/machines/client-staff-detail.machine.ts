import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { machineErrorOf } from './shared/failures';

/**
 * One client for staff (`/clients/{id}`): details, appointments and messages; close or reopen
 * the sessions (closing asks first) and remind the client of the contract. When the server
 * does not offer the reminder yet (501) the button goes away and the page says so.
 */
type Client = components['schemas']['Client'];

export interface ClientDetail {
  client: Client;
  /** null: could not be loaded (the rest still shows). */
  appointments: { rows: Array<components['schemas']['Appointment']>; itemCount: number } | null;
  communications: Array<components['schemas']['Communication']> | null;
}

export interface ClientDetailContext {
  id: string;
  detail: ClientDetail | null;
  error: { code: string } | null;
  actionError: { code: string } | null;
  /** The server answered 501 to the contract reminder. */
  reminderUnavailable: boolean;
}

export type ClientDetailEvent =
  | { type: 'detail.retry' }
  | { type: 'sessions.close' }
  | { type: 'sessions.open' }
  | { type: 'close.confirm' }
  | { type: 'close.abort' }
  | { type: 'reminder.send' };

export type ClientAction = 'sessionsClosed' | 'sessionsOpened' | 'reminderSent';

const errorOf = (error: unknown) => ({ code: machineErrorOf(error).code });

export const clientStaffDetailMachine = setup({
  types: {
    context: {} as ClientDetailContext,
    events: {} as ClientDetailEvent,
    input: {} as { id: string },
    tags: {} as 'busy' | 'error' | 'closing' | 'confirmClose' | 'loading',
  },
  actors: {
    loadDetail: fromPromise<ClientDetail, { id: string }>(() => {
      throw new Error('client detail machine: provide the "loadDetail" actor');
    }),
    setSessionsClosed: fromPromise<Client, { id: string; closed: boolean }>(() => {
      throw new Error('client detail machine: provide the "setSessionsClosed" actor');
    }),
    sendContractReminder: fromPromise<{ sentAt: string }, { id: string }>(() => {
      throw new Error('client detail machine: provide the "sendContractReminder" actor');
    }),
  },
  actions: {
    notify: (_, _params: { action: ClientAction }) => undefined,
  },
  guards: {
    sessionsOpen: ({ context }) => context.detail?.client.sessionsClosedOn === null,
    sessionsClosed: ({ context }) =>
      context.detail !== null && context.detail.client.sessionsClosedOn !== null,
    reminderOffered: ({ context }) =>
      !context.reminderUnavailable && context.detail?.client.hasNotSignedRequiredContract === true,
    notImplemented: ({ event }) => (event as { error?: { status?: unknown } }).error?.status === 501,
  },
}).createMachine({
  id: 'clientDetail',
  context: ({ input }) => ({
    id: input.id,
    detail: null,
    error: null,
    actionError: null,
    reminderUnavailable: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadDetail',
        src: 'loadDetail',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'ready', actions: assign({ detail: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event.error) }) },
      },
    },
    failed: { tags: ['error'], on: { 'detail.retry': 'loading' } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'sessions.close': { guard: 'sessionsOpen', target: 'confirmingClose', actions: assign({ actionError: null }) },
            'sessions.open': { guard: 'sessionsClosed', target: 'opening', actions: assign({ actionError: null }) },
            'reminder.send': { guard: 'reminderOffered', target: 'reminding', actions: assign({ actionError: null }) },
          },
        },
        confirmingClose: { tags: ['confirmClose'], on: { 'close.confirm': 'closing', 'close.abort': 'idle' } },
        closing: {
          tags: ['busy', 'confirmClose', 'closing'],
          invoke: {
            id: 'closeSessions',
            src: 'setSessionsClosed',
            input: ({ context }) => ({ id: context.id, closed: true }),
            onDone: {
              target: '#clientDetail.loading',
              actions: { type: 'notify', params: { action: 'sessionsClosed' } },
            },
            onError: { target: 'idle', actions: assign({ actionError: ({ event }) => errorOf(event.error) }) },
          },
        },
        opening: {
          tags: ['busy'],
          invoke: {
            id: 'openSessions',
            src: 'setSessionsClosed',
            input: ({ context }) => ({ id: context.id, closed: false }),
            onDone: {
              target: '#clientDetail.loading',
              actions: { type: 'notify', params: { action: 'sessionsOpened' } },
            },
            onError: { target: 'idle', actions: assign({ actionError: ({ event }) => errorOf(event.error) }) },
          },
        },
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
              { guard: 'notImplemented', target: 'idle', actions: assign({ reminderUnavailable: true }) },
              { target: 'idle', actions: assign({ actionError: ({ event }) => errorOf(event.error) }) },
            ],
          },
        },
      },
    },
  },
});
