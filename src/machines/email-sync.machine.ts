import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { type MachineError, machineErrorOf, notProvided } from './shared/failures';

/**
 * `/admin/email-sync` (SUPERADMIN): "E-Mail-Adressen abgleichen" compares every linked user's
 * address with the authentication provider's and corrects drifted ones. One call: idle, the
 * sync running (button off, progress shown), its counts, or a failure that can be tried again.
 * A finished sync can be run again.
 */
type Result = components['schemas']['AuthEmailSyncResult'];

export interface EmailSyncContext {
  result: Result | null;
  error: MachineError | null;
}

export type EmailSyncEvent = { type: 'sync.start' };

export const emailSyncMachine = setup({
  types: {
    context: {} as EmailSyncContext,
    events: {} as EmailSyncEvent,
    tags: {} as 'busy' | 'error' | 'done',
  },
  actors: {
    syncEmails: fromPromise<Result, void>(notProvided('e-mail sync', 'syncEmails')),
  },
}).createMachine({
  id: 'emailSync',
  context: { result: null, error: null },
  initial: 'idle',
  states: {
    idle: { on: { 'sync.start': 'syncing' } },
    syncing: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'syncEmails',
        src: 'syncEmails',
        onDone: { target: 'done', actions: assign({ result: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({ result: null, error: ({ event }) => machineErrorOf(event.error) }),
        },
      },
    },
    done: { tags: ['done'], on: { 'sync.start': 'syncing' } },
    failed: { tags: ['error'], on: { 'sync.start': 'syncing' } },
  },
});
