// @vitest-environment node
import { expect } from 'vitest';
import {
  mailingListMachine,
  type MailingListOverview,
  type MailingListSync,
} from '../../src/machines/mailing-list.machine';
import { describeModel, done, failed, startMachine } from '../support/model';

/**
 * Model-based test of the newsletter list page's machine: paths from the real machine, played
 * on a live actor with fake API calls; each state is checked in what the page renders from it
 * (tags, which buttons `can()` enables, the sync it shows).
 */

const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const RUNNING_ALREADY = Object.assign(new Error('sync_running'), {
  status: 409,
  code: 'sync_running',
});

const sync = (status: MailingListSync['status'], processed = 0): MailingListSync => ({
  id: '11111111-1111-4111-8111-111111111111',
  status,
  requestedAt: '2026-11-27T00:00:00.000Z',
  startedAt: status === 'queued' ? null : '2026-11-27T00:00:01.000Z',
  finishedAt: status === 'done' || status === 'failed' ? '2026-11-27T00:01:00.000Z' : null,
  total: 120,
  processed,
  added: processed,
  updated: 0,
  failed: 0,
  failures: [],
  error: null,
});
const overview = (s: MailingListSync | null, configured = true): MailingListOverview => ({
  configured,
  sync: s,
  counts: { consenting: 120, bounced: 3, bouncedHard: 2, bouncedAbuse: 1, unsubscribed: 4 },
});

const IDLE = overview(sync('done', 120));
const RUNNING = overview(sync('running', 50));
const OFF = overview(null, false);

describeModel('mailing list machine, model-based', {
  machine: mailingListMachine,
  plans: [
    {
      events: [
        done('loadMailingList', IDLE),
        done('loadMailingList', RUNNING),
        done('loadMailingList', OFF),
        failed('loadMailingList', NETWORK),
        { type: 'mailingList.retry' },
        { type: 'mailingList.refresh' },
        { type: 'mailingList.sync' },
        done('startMailingListSync', sync('queued')),
        failed('startMailingListSync', RUNNING_ALREADY),
        { type: 'xstate.after.syncPoll.mailingList.watching' },
        done('pollMailingList', RUNNING),
        done('pollMailingList', IDLE),
        failed('pollMailingList', NETWORK),
      ],
      serialize: (s) => [s.context.error?.code ?? null, s.context.overview?.configured ?? null],
    },
  ],
  start: () => startMachine(mailingListMachine),
  states: {
    'mailingList.loading': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can({ type: 'mailingList.sync' })).toBe(false);
    },
    'mailingList.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.hasTag('loaded')).toBe(false);
      expect(s.context.error).toEqual({ code: 'network_error' });
      expect(s.can({ type: 'mailingList.retry' })).toBe(true);
    },
    'mailingList.ready': (s) => {
      expect(s.hasTag('loaded')).toBe(true);
      expect(s.hasTag('syncing')).toBe(false);
      const configured = s.context.overview!.configured;
      // "Jetzt abgleichen" only when the list is set up.
      expect(s.can({ type: 'mailingList.sync' })).toBe(configured);
      expect(s.can({ type: 'mailingList.refresh' })).toBe(true);
      expect(s.context.error).toBeNull();
    },
    'mailingList.starting': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can({ type: 'mailingList.sync' })).toBe(false);
    },
    'mailingList.startFailed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.hasTag('loaded')).toBe(true);
      expect(s.context.error).toEqual({ code: 'sync_running' });
      expect(s.can({ type: 'mailingList.sync' })).toBe(true);
      expect(s.can({ type: 'mailingList.refresh' })).toBe(true);
    },
    'mailingList.watching': (s) => {
      expect(s.hasTag('syncing')).toBe(true);
      expect(['queued', 'running']).toContain(s.context.overview!.sync!.status);
      expect(s.can({ type: 'mailingList.sync' })).toBe(false);
      expect(s.can({ type: 'mailingList.refresh' })).toBe(false);
    },
    'mailingList.polling': (s) => {
      expect(s.hasTag('syncing')).toBe(true);
      expect(s.can({ type: 'mailingList.sync' })).toBe(false);
    },
  },
});
