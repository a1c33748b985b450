import { expect } from 'vitest';
import { calendarFeedMachine } from '../../src/machines/calendar-feed.machine';
import { describeModel, done, failed, startMachine } from '../support/model';

/**
 * The coach's calendar subscription on /profile, model-based: the status loads (or fails and
 * retries), a first address is created at once, renewing asks first, and the new secret
 * address stays on screen to copy; a failed call keeps the status and says why.
 */

const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const NONE = { active: false, createdAt: null };
const ACTIVE = { active: true, createdAt: '2026-12-01T09:00:00.000Z' };
const FEED = {
  url: 'https://praxis.example/api/calendar-feed/secret',
  webcalUrl: 'webcal://praxis.example/api/calendar-feed/secret',
  createdAt: '2026-12-07T10:00:00.000Z',
};

describeModel('calendar feed machine, model-based', {
  machine: calendarFeedMachine,
  plans: [
    {
      input: { coachId: 'k1' },
      events: [
        done('loadStatus', NONE),
        done('loadStatus', ACTIVE),
        failed('loadStatus', NETWORK),
        { type: 'feed.retry' },
        { type: 'feed.create' },
        { type: 'feed.renew' },
        { type: 'renew.confirm' },
        { type: 'renew.abort' },
        done('createFeed', FEED),
        failed('createFeed', NETWORK),
      ],
      serialize: (s) => ({
        active: s.context.status?.active ?? null,
        feed: s.context.feed !== null,
        error: s.context.error?.code ?? null,
      }),
    },
  ],
  start: (plan) => startMachine(calendarFeedMachine, { input: plan.input! }),
  states: {
    'calendarFeed.loading': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes!.loadStatus!.latest().input).toEqual({ coachId: 'k1' });
    },
    'calendarFeed.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.can({ type: 'feed.retry' })).toBe(true);
    },
    'calendarFeed.ready.idle': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      const active = s.context.status!.active;
      // A first address at once; an existing one is only renewed, after the question.
      expect(s.can({ type: 'feed.create' })).toBe(!active);
      expect(s.can({ type: 'feed.renew' })).toBe(active);
      // What was just created is on screen, with the status it implies.
      if (s.context.feed)
        expect(s.context.status).toEqual({ active: true, createdAt: FEED.createdAt });
    },
    'calendarFeed.ready.confirmingRenew': (s, run) => {
      expect(s.hasTag('confirmRenew')).toBe(true);
      expect(run.fakes!.createFeed!.pending()).toBe(0);
    },
    'calendarFeed.ready.creating': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes!.createFeed!.latest().input).toEqual({ coachId: 'k1' });
    },
  },
});
