import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { type MachineError, machineErrorOf, notProvided } from './shared/failures';

/**
 * `/admin/webhooks` (SUPERADMIN): one row per event type with its URL, on/off, why the server
 * switched it off, and the newest delivery (`lastDelivery`, answered by the list call itself).
 * Load, fail with retry, refresh; the rows stay on screen while a refresh runs.
 */
export type WebhookListRow = components['schemas']['Webhook'];

export interface WebhookListContext {
  rows: WebhookListRow[];
  error: MachineError | null;
}

export type WebhookListEvent = { type: 'list.refresh' } | { type: 'list.retry' };

export const webhookListMachine = setup({
  types: {
    context: {} as WebhookListContext,
    events: {} as WebhookListEvent,
    tags: {} as 'busy' | 'error' | 'loaded',
  },
  actors: {
    loadWebhooks: fromPromise<WebhookListRow[], void>(notProvided('webhook list', 'loadWebhooks')),
  },
}).createMachine({
  id: 'webhookList',
  context: { rows: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadWebhooks',
        src: 'loadWebhooks',
        onDone: {
          target: 'ready',
          actions: assign({ rows: ({ event }) => event.output, error: null }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
        },
      },
    },
    ready: { tags: ['loaded'], on: { 'list.refresh': 'loading' } },
    failed: { tags: ['error'], on: { 'list.retry': 'loading' } },
  },
});
