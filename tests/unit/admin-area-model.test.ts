// @vitest-environment node
import { expect } from 'vitest';
import { emailSyncMachine } from '../../src/machines/email-sync.machine';
import { webhookListMachine } from '../../src/machines/webhook-list.machine';
import { describeModel, done, failed, startMachine } from '../support/model';
import { LAST, STORED, TYPE, webhook } from './webhook-fakes';

/**
 * Model-based tests of the superadmin area's small machines: the webhook list and the
 * e-mail sync, each state checked in what the page shows (tags, `can()`, context) and in the
 * calls that went out. The webhook page's machine is played against its view in
 * webhook-detail-model.test.tsx.
 */
describeModel('webhook list machine, model-based', {
  machine: webhookListMachine,
  plans: [
    {
      events: [
        done('loadWebhooks', [
          { ...STORED, lastDelivery: LAST },
          webhook({ type: 'client.created' }),
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
      expect(s.context.rows.map((r) => r.type)).toEqual([TYPE, 'client.created']);
      expect(s.context.rows[0]!.lastDelivery).toEqual(LAST);
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
