import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { machineErrorOf, type MachineError } from './shared/failures';

/**
 * The coach's calendar subscription on the profile: whether a feed address exists, creating
 * one, and renewing it (asks first: the old address stops working at once). The secret
 * address is only in the answer of creating or renewing, so the machine keeps it to show
 * (and copy) until the page is left.
 *
 * The screen supplies `loadStatus` (GET) and `createFeed` (POST) with `.provide()`.
 */
export type CalendarFeedStatus = components['schemas']['CalendarFeedStatus'];
export type CalendarFeed = components['schemas']['CalendarFeed'];

export interface CalendarFeedContext {
  coachId: string;
  status: CalendarFeedStatus | null;
  /** The address just created or renewed; null until then. */
  feed: CalendarFeed | null;
  error: MachineError | null;
}

export type CalendarFeedEvent =
  | { type: 'feed.retry' }
  | { type: 'feed.create' }
  | { type: 'feed.renew' }
  | { type: 'renew.confirm' }
  | { type: 'renew.abort' };

const notProvided = (name: string) => () => {
  throw new Error(`calendar feed machine: provide the "${name}" actor`);
};

export const calendarFeedMachine = setup({
  types: {
    context: {} as CalendarFeedContext,
    events: {} as CalendarFeedEvent,
    input: {} as { coachId: string },
    tags: {} as 'busy' | 'loading' | 'error' | 'confirmRenew',
  },
  actors: {
    loadStatus: fromPromise<CalendarFeedStatus, { coachId: string }>(notProvided('loadStatus')),
    createFeed: fromPromise<CalendarFeed, { coachId: string }>(notProvided('createFeed')),
  },
  guards: {
    active: ({ context }) => context.status?.active === true,
    inactive: ({ context }) => context.status?.active !== true,
  },
}).createMachine({
  id: 'calendarFeed',
  context: ({ input }) => ({ coachId: input.coachId, status: null, feed: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        input: ({ context }) => ({ coachId: context.coachId }),
        onDone: {
          target: 'ready',
          actions: assign({ status: ({ event }) => event.output, error: null }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
        },
      },
    },
    failed: { tags: ['error'], on: { 'feed.retry': 'loading' } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'feed.create': {
              guard: 'inactive',
              target: 'creating',
              actions: assign({ error: null }),
            },
            'feed.renew': {
              guard: 'active',
              target: 'confirmingRenew',
              actions: assign({ error: null }),
            },
          },
        },
        confirmingRenew: {
          tags: ['confirmRenew'],
          on: { 'renew.confirm': 'creating', 'renew.abort': 'idle' },
        },
        creating: {
          tags: ['busy'],
          invoke: {
            id: 'createFeed',
            src: 'createFeed',
            input: ({ context }) => ({ coachId: context.coachId }),
            onDone: {
              target: 'idle',
              actions: assign({
                feed: ({ event }) => event.output,
                status: ({ event }) => ({ active: true, createdAt: event.output.createdAt }),
              }),
            },
            onError: {
              target: 'idle',
              actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
            },
          },
        },
      },
    },
  },
});
