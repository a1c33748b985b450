// @vitest-environment node
import { expect } from 'vitest';
import type { components } from '../../shared/contract/product';
import { emailSyncMachine } from '../../src/machines/email-sync.machine';
import { validateWebhookUrl, webhookDetailMachine } from '../../src/machines/webhook-detail.machine';
import { webhookListMachine } from '../../src/machines/webhook-list.machine';
import { describeModel, done, failed, startMachine } from '../support/model';

/**
 * Model-based tests of the superadmin area's machines (issue 21): the webhook list, one
 * webhook's page (settings, secret shown once, rotation after a question, test event, delivery
 * log with deliver again and polling while a message is pending) and the e-mail sync. Each state
 * is checked in what the page shows (tags, `can()`, context) and in the calls that went out.
 */
type Webhook = components['schemas']['Webhook'];
type Delivery = components['schemas']['WebhookDelivery'];

const TYPE = 'appointment.created' as const;
const URL = 'https://hooks.beispiel.de/sprechstunde';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ROTATED = 'whsec_c2VjcmV0LXR3by1zZWNyZXQtdHdvLXNlY3JldA==';

const webhook = (over: Partial<Webhook> = {}): Webhook => ({
  type: TYPE,
  url: null,
  secretSet: false,
  active: false,
  updatedAt: null,
  disabledAt: null,
  disabledReason: null,
  failingSince: null,
  previousSecretUntil: null,
  ...over,
});
const NEW = webhook();
const STORED = webhook({ url: URL, secretSet: true, active: true, updatedAt: '2026-11-20T10:00:00Z' });

const M1 = '0193a8f2-7c4e-7000-8000-000000000001';
const M2 = '0193a8f2-7c4e-7000-8000-000000000002';
const delivery = (messageId: string, status: Delivery['status'], eventType = TYPE as string): Delivery => ({
  messageId,
  type: TYPE,
  eventType,
  createdAt: '2026-11-26T09:00:00Z',
  status,
  nextAttemptAt: null,
  attempts:
    status === 'pending'
      ? []
      : [
          {
            attemptNo: 1,
            attemptedAt: '2026-11-26T09:00:01Z',
            httpStatus: status === 'delivered' ? 200 : 500,
            durationMs: 42,
            error: status === 'delivered' ? null : 'HTTP 500',
            responseSnippet: 'ok',
            outcome: status === 'delivered' ? 'success' : 'failed',
            manual: false,
          },
        ],
});
const LOG = [delivery(M1, 'failed'), delivery(M2, 'delivered')];
const PENDING_LOG = [delivery(M1, 'pending', 'webhook.test'), ...LOG];
const BAD_URL = {
  status: 400,
  code: 'validation_failed',
  fieldErrors: [{ field: 'body.url', code: 'value_invalid_format' }],
};
const SERVER_ERROR = { status: 500, code: 'internal_error' };

describeModel('webhook list machine, model-based', {
  machine: webhookListMachine,
  plans: [
    {
      events: [
        done('loadWebhooks', [
          { webhook: STORED, last: LOG[1] },
          { webhook: webhook({ type: 'client.created' }), last: null },
        ]),
        failed('loadWebhooks', { code: 'network_error' }),
        { type: 'list.refresh' },
        { type: 'list.retry' },
      ],
    },
  ],
  start: () => startMachine(webhookListMachine),
  states: {
    'webhookList.loading': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can({ type: 'list.refresh' })).toBe(false);
      expect(run.fakes.loadWebhooks!.pending()).toBe(1);
    },
    'webhookList.ready': (s) => {
      expect(s.context.rows.map((r) => r.webhook.type)).toEqual([TYPE, 'client.created']);
      expect(s.context.error).toBeNull();
      expect(s.can({ type: 'list.refresh' })).toBe(true);
    },
    'webhookList.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.context.error?.code).toBe('network_error');
      expect(s.can({ type: 'list.retry' })).toBe(true);
    },
  },
});

interface DetailRun {
  toasts: string[];
}

const startDetail = () => {
  const toasts: string[] = [];
  const started = startMachine(webhookDetailMachine, {
    input: { type: TYPE },
    actions: {
      notifySaved: () => void toasts.push('saved'),
      notifyTestQueued: () => void toasts.push('testQueued'),
      notifyRedelivered: () => void toasts.push('redelivered'),
    },
  });
  return Object.assign(started, { toasts });
};

describeModel('webhook detail machine, model-based', {
  machine: webhookDetailMachine,
  plans: [
    {
      name: 'settings',
      input: { type: TYPE },
      // What the URL field holds decides whether submit sends.
      serialize: (s) => s.context.url,
      events: [
        done('loadWebhook', NEW),
        failed('loadWebhook', { code: 'network_error' }),
        { type: 'settings.retry' },
        { type: 'form.change', field: 'url', value: URL },
        { type: 'form.submit' },
        done('saveWebhook', { webhook: STORED, secret: SECRET }),
        failed('saveWebhook', BAD_URL),
        failed('saveWebhook', SERVER_ERROR),
        { type: 'form.retry' },
        { type: 'form.edit' },
      ],
      walks: [
        // An empty URL is refused before anything is sent; a server 400 lands at the field.
        [done('loadWebhook', NEW), { type: 'form.submit' }, { type: 'form.change', field: 'url', value: 'ftp://x' }, { type: 'form.submit' }],
        [
          done('loadWebhook', NEW),
          { type: 'form.change', field: 'url', value: URL },
          { type: 'form.change', field: 'active', value: false },
          { type: 'form.submit' },
          failed('saveWebhook', BAD_URL),
        ],
        // The secret of the first save is shown until dismissed.
        [
          done('loadWebhook', NEW),
          { type: 'form.change', field: 'url', value: URL },
          { type: 'form.submit' },
          done('saveWebhook', { webhook: STORED, secret: SECRET }),
          { type: 'secret.dismiss' },
        ],
      ],
    },
    {
      name: 'rotation',
      input: { type: TYPE },
      events: [
        done('loadWebhook', STORED),
        { type: 'rotate.ask' },
        { type: 'rotate.confirm' },
        { type: 'rotate.abort' },
        { type: 'rotate.retry' },
        done('rotateSecret', {
          webhook: { ...STORED, previousSecretUntil: '2026-11-27T09:00:00Z' },
          secret: ROTATED,
        }),
        failed('rotateSecret', SERVER_ERROR),
      ],
    },
    {
      name: 'test event',
      input: { type: TYPE },
      events: [
        done('loadWebhook', STORED),
        { type: 'test.send' },
        done('sendTest', delivery(M1, 'pending', 'webhook.test')),
        failed('sendTest', { status: 409, code: 'webhook_not_configured' }),
        done('loadDeliveries', LOG),
      ],
      walks: [
        // A queued test reloads a log that was shown.
        [done('loadDeliveries', LOG), done('loadWebhook', STORED), { type: 'test.send' }, done('sendTest', delivery(M1, 'pending', 'webhook.test'))],
      ],
    },
    {
      name: 'log',
      input: { type: TYPE },
      events: [
        done('loadDeliveries', PENDING_LOG),
        failed('loadDeliveries', { code: 'network_error' }),
        { type: 'log.refresh' },
        { type: 'delivery.redeliver', messageId: M2 },
        done('redeliver', delivery(M2, 'delivered')),
        failed('redeliver', { status: 409, code: 'webhook_not_configured' }),
        { type: 'xstate.after.pendingPoll.webhookDetail.log.ready' },
      ],
      walks: [
        // A pending message: the log looks again by itself, until nothing is pending.
        [
          done('loadDeliveries', PENDING_LOG),
          { type: 'xstate.after.pendingPoll.webhookDetail.log.ready' },
          done('loadDeliveries', LOG),
        ],
        // Deliver again after a failed try: the log loads again with a toast.
        [
          done('loadDeliveries', LOG),
          { type: 'delivery.redeliver', messageId: M1 },
          failed('redeliver', SERVER_ERROR),
          { type: 'delivery.redeliver', messageId: M1 },
          done('redeliver', delivery(M1, 'pending')),
          done('loadDeliveries', LOG),
        ],
      ],
    },
  ],
  start: startDetail,
  states: {
    'webhookDetail.settings.loading': (s, run) => {
      expect(s.hasTag('loading')).toBe(true);
      expect(s.can({ type: 'form.submit' })).toBe(false);
      expect(run.fakes.loadWebhook!.calls.at(-1)).toEqual({ type: TYPE });
    },
    'webhookDetail.settings.loadFailed': (s) => {
      expect(s.context.error?.code).toBe('network_error');
      expect(s.can({ type: 'settings.retry' })).toBe(true);
    },
    'webhookDetail.settings.editing': (s, run) => {
      expect(s.can({ type: 'form.submit' })).toBe(true);
      const errors = s.context.fieldErrors;
      if (errors.url) expect(['value_missing', 'value_invalid_format']).toContain(errors.url);
      // A refused URL is never sent.
      for (const call of run.fakes.saveWebhook!.calls) expect(validateWebhookUrl(call.url)).toEqual({});
      if (s.context.secret !== null) {
        expect(s.context.secret).toBe(SECRET);
        expect(s.context.secretFrom).toBe('saved');
        expect(s.context.webhook?.secretSet).toBe(true);
      }
    },
    'webhookDetail.settings.saving': (s, run) => {
      expect(s.hasTag('saving')).toBe(true);
      expect(s.can({ type: 'form.submit' })).toBe(false);
      expect(run.fakes.saveWebhook!.calls.at(-1)).toEqual({ type: TYPE, url: URL, active: s.context.active });
    },
    'webhookDetail.settings.saveFailed': (s) => {
      expect(s.context.saveError?.code).toBe('internal_error');
      expect(s.can({ type: 'form.retry' })).toBe(true);
      expect(s.can({ type: 'form.edit' })).toBe(true);
    },
    'webhookDetail.rotation.idle': (s) => {
      expect(s.context.rotateError).toBeNull();
      expect(s.can({ type: 'rotate.ask' })).toBe(s.context.webhook?.secretSet === true);
      if (s.context.secretFrom === 'rotated') {
        expect(s.context.secret).toBe(ROTATED);
        expect(s.context.webhook?.previousSecretUntil).toBe('2026-11-27T09:00:00Z');
      }
    },
    'webhookDetail.rotation.asking': (s, run) => {
      expect(s.can({ type: 'rotate.confirm' })).toBe(true);
      expect(s.can({ type: 'rotate.abort' })).toBe(true);
      expect(run.fakes.rotateSecret!.pending()).toBe(0);
    },
    'webhookDetail.rotation.rotating': (s, run) => {
      expect(s.can({ type: 'rotate.abort' })).toBe(false);
      expect(run.fakes.rotateSecret!.calls.at(-1)).toEqual({ type: TYPE });
    },
    'webhookDetail.rotation.failed': (s) => {
      expect(s.context.rotateError?.code).toBe('internal_error');
      expect(s.can({ type: 'rotate.retry' })).toBe(true);
    },
    'webhookDetail.test.idle': (s) => {
      expect(s.can({ type: 'test.send' })).toBe(!!s.context.webhook?.url && s.context.webhook.secretSet);
    },
    'webhookDetail.test.sending': (s, run) => {
      expect(s.can({ type: 'test.send' })).toBe(false);
      expect(run.fakes.sendTest!.calls.at(-1)).toEqual({ type: TYPE });
    },
    'webhookDetail.test.sent': (s, run) => {
      expect(s.can({ type: 'test.send' })).toBe(true);
      expect((run as unknown as DetailRun).toasts).toContain('testQueued');
      // A log that was shown is asked for again.
      if (run.fakes.loadDeliveries!.calls.length > 1) expect(s.hasTag('logLoading')).toBe(true);
    },
    'webhookDetail.test.failed': (s) => {
      expect(s.context.testError?.code).toBe('webhook_not_configured');
      expect(s.can({ type: 'test.send' })).toBe(true);
    },
    'webhookDetail.log.loading': (s, run) => {
      expect(s.hasTag('logLoading')).toBe(true);
      expect(run.fakes.loadDeliveries!.pending()).toBe(1);
      expect(run.fakes.loadDeliveries!.calls.at(-1)).toEqual({ type: TYPE });
    },
    'webhookDetail.log.ready': (s) => {
      expect(s.context.deliveries.length).toBeGreaterThan(0);
      expect(s.can({ type: 'delivery.redeliver', messageId: M1 })).toBe(true);
      expect(s.can({ type: 'delivery.redeliver', messageId: 'unbekannt' })).toBe(false);
    },
    'webhookDetail.log.failed': (s) => {
      expect(s.context.logError?.code).toBe('network_error');
      expect(s.can({ type: 'log.refresh' })).toBe(true);
    },
    'webhookDetail.log.redelivering': (s, run) => {
      expect(s.can({ type: 'log.refresh' })).toBe(false);
      expect(run.fakes.redeliver!.calls.at(-1)).toEqual({ type: TYPE, messageId: s.context.redelivering });
    },
    'webhookDetail.log.redeliverFailed': (s) => {
      expect(s.context.redeliverError).not.toBeNull();
      expect(s.context.redelivering).not.toBeNull();
      expect(s.can({ type: 'log.refresh' })).toBe(true);
    },
  },
  finish: (run, path) => {
    const count = (type: string) => path.steps.filter((step) => step.event.type === type).length;
    const toasts = (run as unknown as DetailRun).toasts;
    expect(toasts.filter((t) => t === 'saved')).toHaveLength(count('xstate.done.actor.saveWebhook'));
    expect(toasts.filter((t) => t === 'redelivered')).toHaveLength(count('xstate.done.actor.redeliver'));
    // The secret is gone once dismissed.
    if (path.steps.at(-1)?.event.type === 'secret.dismiss') expect(run.actor.getSnapshot().context.secret).toBeNull();
  },
});

const RESULT = { checked: 12, usersUpdated: 2, clientsUpdated: 1, missing: 1 };

describeModel('e-mail sync machine, model-based', {
  machine: emailSyncMachine,
  plans: [
    {
      events: [
        { type: 'sync.start' },
        done('syncEmails', RESULT),
        failed('syncEmails', { status: 403, code: 'forbidden' }),
      ],
    },
  ],
  start: () => startMachine(emailSyncMachine),
  states: {
    'emailSync.idle': (s) => {
      expect(s.context.result).toBeNull();
      expect(s.can({ type: 'sync.start' })).toBe(true);
    },
    'emailSync.syncing': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can({ type: 'sync.start' })).toBe(false);
      expect(run.fakes.syncEmails!.pending()).toBe(1);
    },
    'emailSync.done': (s) => {
      expect(s.context.result).toEqual(RESULT);
      expect(s.can({ type: 'sync.start' })).toBe(true);
    },
    'emailSync.failed': (s) => {
      expect(s.context.error?.code).toBe('forbidden');
      expect(s.context.result).toBeNull();
      expect(s.can({ type: 'sync.start' })).toBe(true);
    },
  },
});
