import { assign, fromPromise, raise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { fieldErrorsOf } from './scheduling/shared';
import { type MachineError, machineErrorOf, notProvided } from './shared/failures';

/**
 * `/admin/webhooks/:type` (SUPERADMIN): one event type's endpoint. Four regions side by side:
 * - `settings`: load, edit URL and on/off, save; a 400 puts its codes at the fields, another
 *   failure stays with retry. The first save answers the signing secret.
 * - `rotation`: "Geheimnis erneuern" asks first (the old secret keeps signing 24 h), then
 *   answers the new secret.
 * - `test`: "Testereignis senden" queues a `webhook.test` message; the log reloads.
 * - `log`: the newest messages with every attempt; refresh; "Erneut zustellen" per message
 *   (same webhook-id); while a message is still pending, the log reloads by itself
 *   (`pendingPoll`).
 * `secret` is the secret the last save or rotation answered: shown once, until `secret.dismiss`
 * or the page is left (the server never answers it again).
 */
type Webhook = components['schemas']['Webhook'];
type WebhookType = components['schemas']['WebhookType'];
type WebhookDelivery = components['schemas']['WebhookDelivery'];
type WebhookWithSecret = components['schemas']['WebhookWithSecret'];

export type WebhookField = 'url' | 'active';
export type WebhookFieldErrors = Partial<Record<WebhookField, string>>;

export interface WebhookDetailInput {
  type: WebhookType;
}

export interface WebhookDetailContext {
  type: WebhookType;
  webhook: Webhook | null;
  url: string;
  active: boolean;
  fieldErrors: WebhookFieldErrors;
  error: MachineError | null;
  saveError: MachineError | null;
  /** The new signing secret, answered once; null when none is to be shown. */
  secret: string | null;
  secretFrom: 'saved' | 'rotated' | null;
  rotateError: MachineError | null;
  testError: MachineError | null;
  deliveries: WebhookDelivery[];
  logError: MachineError | null;
  /** The message "Erneut zustellen" runs for (or failed for). */
  redelivering: string | null;
  redeliverError: MachineError | null;
}

export type WebhookDetailEvent =
  | { type: 'settings.retry' }
  | { type: 'form.change'; field: 'url'; value: string }
  | { type: 'form.change'; field: 'active'; value: boolean }
  | { type: 'form.submit' }
  | { type: 'form.retry' }
  | { type: 'form.edit' }
  | { type: 'secret.dismiss' }
  | { type: 'rotate.ask' }
  | { type: 'rotate.confirm' }
  | { type: 'rotate.abort' }
  | { type: 'rotate.retry' }
  | { type: 'test.send' }
  | { type: 'log.refresh' }
  | { type: 'delivery.redeliver'; messageId: string };

const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

/** The same rules as the contract's: required, http(s), at most 2,000 characters. */
export function validateWebhookUrl(url: string): WebhookFieldErrors {
  const value = url.trim();
  if (value === '') return { url: 'value_missing' };
  if (value.length > 2000) return { url: 'value_too_long' };
  if (!HTTP_URL.test(value)) return { url: 'value_invalid_format' };
  return {};
}

const SERVER_FIELDS = { url: 'url', active: 'active' } as const;

const withSecret = (output: WebhookWithSecret, from: 'saved' | 'rotated') =>
  output.secret === null ? {} : { secret: output.secret, secretFrom: from };

export const webhookDetailMachine = setup({
  types: {
    context: {} as WebhookDetailContext,
    events: {} as WebhookDetailEvent,
    input: {} as WebhookDetailInput,
    tags: {} as
      | 'loading'
      | 'loadError'
      | 'editing'
      | 'saving'
      | 'saveError'
      | 'rotateAsking'
      | 'rotating'
      | 'rotateError'
      | 'testSending'
      | 'testSent'
      | 'testError'
      | 'logLoading'
      | 'logError'
      | 'redelivering'
      | 'redeliverError',
  },
  actors: {
    loadWebhook: fromPromise<Webhook, { type: WebhookType }>(
      notProvided('webhook detail', 'loadWebhook'),
    ),
    saveWebhook: fromPromise<
      WebhookWithSecret,
      { type: WebhookType; url: string; active: boolean }
    >(notProvided('webhook detail', 'saveWebhook')),
    rotateSecret: fromPromise<WebhookWithSecret, { type: WebhookType }>(
      notProvided('webhook detail', 'rotateSecret'),
    ),
    sendTest: fromPromise<WebhookDelivery, { type: WebhookType }>(
      notProvided('webhook detail', 'sendTest'),
    ),
    loadDeliveries: fromPromise<WebhookDelivery[], { type: WebhookType }>(
      notProvided('webhook detail', 'loadDeliveries'),
    ),
    redeliver: fromPromise<WebhookDelivery, { type: WebhookType; messageId: string }>(
      notProvided('webhook detail', 'redeliver'),
    ),
  },
  actions: {
    /** Toasts of the page. */
    notifySaved: () => undefined,
    notifyTestQueued: () => undefined,
    notifyRedelivered: () => undefined,
  },
  guards: {
    urlInvalid: ({ context }) => Object.keys(validateWebhookUrl(context.url)).length > 0,
    hasFieldErrors: ({ event }) =>
      'error' in event && Object.keys(fieldErrorsOf(event.error, SERVER_FIELDS)).length > 0,
    /** Only a stored endpoint (URL and secret) can rotate or be tested. */
    configured: ({ context }) => !!context.webhook?.url && context.webhook.secretSet,
    knownMessage: ({ context, event }) =>
      event.type === 'delivery.redeliver' &&
      context.deliveries.some((d) => d.messageId === event.messageId),
    anyPending: ({ context }) => context.deliveries.some((d) => d.status === 'pending'),
    hasSecret: ({ context }) => context.secret !== null,
  },
  delays: {
    /** How often the log looks again while a message waits for its attempt. */
    pendingPoll: 2000,
  },
}).createMachine({
  id: 'webhookDetail',
  type: 'parallel',
  context: ({ input }) => ({
    type: input.type,
    webhook: null,
    url: '',
    active: true,
    fieldErrors: {},
    error: null,
    saveError: null,
    secret: null,
    secretFrom: null,
    rotateError: null,
    testError: null,
    deliveries: [],
    logError: null,
    redelivering: null,
    redeliverError: null,
  }),
  on: {
    'secret.dismiss': { guard: 'hasSecret', actions: assign({ secret: null, secretFrom: null }) },
  },
  states: {
    settings: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadWebhook',
            src: 'loadWebhook',
            input: ({ context }) => ({ type: context.type }),
            onDone: {
              target: 'editing',
              actions: assign(({ event }) => ({
                webhook: event.output,
                url: event.output.url ?? '',
                // A new endpoint starts switched on; a stored one as it is.
                active: event.output.url === null ? true : event.output.active,
                error: null,
              })),
            },
            onError: {
              target: 'loadFailed',
              actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
            },
          },
        },
        loadFailed: { tags: ['loadError'], on: { 'settings.retry': 'loading' } },
        editing: {
          tags: ['editing'],
          on: {
            'form.change': {
              actions: assign(({ context, event }) => {
                const { [event.field]: _gone, ...fieldErrors } = context.fieldErrors;
                return event.field === 'url'
                  ? { url: event.value, fieldErrors }
                  : { active: event.value, fieldErrors };
              }),
            },
            'form.submit': [
              {
                guard: 'urlInvalid',
                actions: assign({ fieldErrors: ({ context }) => validateWebhookUrl(context.url) }),
              },
              { target: 'saving', actions: assign({ fieldErrors: {}, saveError: null }) },
            ],
          },
        },
        saving: {
          tags: ['saving'],
          invoke: {
            id: 'saveWebhook',
            src: 'saveWebhook',
            input: ({ context }) => ({
              type: context.type,
              url: context.url.trim(),
              active: context.active,
            }),
            onDone: {
              target: 'editing',
              actions: [
                assign(({ event }) => ({
                  webhook: event.output.webhook,
                  url: event.output.webhook.url ?? '',
                  active: event.output.webhook.active,
                  ...withSecret(event.output, 'saved'),
                })),
                'notifySaved',
              ],
            },
            onError: [
              {
                guard: 'hasFieldErrors',
                target: 'editing',
                actions: assign({
                  fieldErrors: ({ event }) => fieldErrorsOf(event.error, SERVER_FIELDS),
                }),
              },
              {
                target: 'saveFailed',
                actions: assign({ saveError: ({ event }) => machineErrorOf(event.error) }),
              },
            ],
          },
        },
        saveFailed: {
          tags: ['saveError'],
          on: {
            'form.retry': { target: 'saving', actions: assign({ saveError: null }) },
            'form.edit': { target: 'editing', actions: assign({ saveError: null }) },
          },
        },
      },
    },
    rotation: {
      initial: 'idle',
      states: {
        idle: { on: { 'rotate.ask': { guard: 'configured', target: 'asking' } } },
        asking: {
          tags: ['rotateAsking'],
          on: { 'rotate.confirm': 'rotating', 'rotate.abort': 'idle' },
        },
        rotating: {
          tags: ['rotating'],
          invoke: {
            id: 'rotateSecret',
            src: 'rotateSecret',
            input: ({ context }) => ({ type: context.type }),
            onDone: {
              target: 'idle',
              actions: assign(({ event }) => ({
                webhook: event.output.webhook,
                rotateError: null,
                ...withSecret(event.output, 'rotated'),
              })),
            },
            onError: {
              target: 'failed',
              actions: assign({ rotateError: ({ event }) => machineErrorOf(event.error) }),
            },
          },
        },
        failed: {
          tags: ['rotateError'],
          on: {
            'rotate.retry': { target: 'rotating', actions: assign({ rotateError: null }) },
            'rotate.abort': { target: 'idle', actions: assign({ rotateError: null }) },
          },
        },
      },
    },
    test: {
      initial: 'idle',
      states: {
        idle: { on: { 'test.send': { guard: 'configured', target: 'sending' } } },
        sending: {
          tags: ['testSending'],
          entry: assign({ testError: null }),
          invoke: {
            id: 'sendTest',
            src: 'sendTest',
            input: ({ context }) => ({ type: context.type }),
            onDone: {
              target: 'sent',
              actions: ['notifyTestQueued', raise({ type: 'log.refresh' })],
            },
            onError: {
              target: 'failed',
              actions: assign({ testError: ({ event }) => machineErrorOf(event.error) }),
            },
          },
        },
        sent: {
          tags: ['testSent'],
          on: { 'test.send': { guard: 'configured', target: 'sending' } },
        },
        failed: {
          tags: ['testError'],
          on: { 'test.send': { guard: 'configured', target: 'sending' } },
        },
      },
    },
    log: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['logLoading'],
          invoke: {
            id: 'loadDeliveries',
            src: 'loadDeliveries',
            input: ({ context }) => ({ type: context.type }),
            onDone: {
              target: 'ready',
              actions: assign({ deliveries: ({ event }) => event.output, logError: null }),
            },
            onError: {
              target: 'failed',
              actions: assign({ logError: ({ event }) => machineErrorOf(event.error) }),
            },
          },
        },
        ready: {
          after: { pendingPoll: { guard: 'anyPending', target: 'loading' } },
          on: {
            'log.refresh': 'loading',
            'delivery.redeliver': {
              guard: 'knownMessage',
              target: 'redelivering',
              actions: assign({
                redelivering: ({ event }) => event.messageId,
                redeliverError: null,
              }),
            },
          },
        },
        failed: { tags: ['logError'], on: { 'log.refresh': 'loading' } },
        redelivering: {
          tags: ['redelivering'],
          invoke: {
            id: 'redeliver',
            src: 'redeliver',
            input: ({ context }) => ({ type: context.type, messageId: context.redelivering! }),
            onDone: {
              target: 'loading',
              actions: ['notifyRedelivered', assign({ redelivering: null })],
            },
            onError: {
              target: 'redeliverFailed',
              actions: assign({ redeliverError: ({ event }) => machineErrorOf(event.error) }),
            },
          },
        },
        /** The log as before, with the failure named at its message. */
        redeliverFailed: {
          tags: ['redeliverError'],
          on: {
            'log.refresh': {
              target: 'loading',
              actions: assign({ redelivering: null, redeliverError: null }),
            },
            'delivery.redeliver': {
              guard: 'knownMessage',
              target: 'redelivering',
              actions: assign({
                redelivering: ({ event }) => event.messageId,
                redeliverError: null,
              }),
            },
          },
        },
      },
    },
  },
});
