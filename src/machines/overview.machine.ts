import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { errorCodeOf, notProvided } from './shared/failures';

/**
 * A working overview as a list of cards: the staff start page "Heute" (`/today`) and the
 * admin dashboard (`/dashboard`). One machine for both; the page supplies `loadOverview`,
 * which reads the counts (and, for "Heute", the day's appointments) from the list operations.
 * Later sections (clinical counts, integrations) are more cards from the same loader.
 *
 * loading → loaded, or failed with retry; `overview.refresh` loads again. While loaded, the
 * clock is read every minute so join links appear and disappear on time.
 */
export type Appointment = components['schemas']['Appointment'];

export interface OverviewCard {
  /** Which card; its label is `shell:overview.cards.<id>`. */
  id: string;
  count: number;
  /** The list counts at most 1,000 matches ("mehr als 1.000"). */
  capped: boolean;
  /** Where the person acts on it; null when there is no page for it. */
  href: string | null;
  /** Work waiting for someone: shown highlighted while the count is above zero. */
  waiting?: boolean;
}

export interface Overview {
  cards: OverviewCard[];
  /** The day's appointments ("Heute"), oldest first; empty on the dashboard. */
  appointments: Appointment[];
}

export interface OverviewContext extends Overview {
  error: { code: string } | null;
  nowMs: number;
  clock: () => number;
}

export type OverviewEvent = { type: 'overview.retry' } | { type: 'overview.refresh' };

/** How often the page re-reads the clock (join links). */
export const OVERVIEW_TICK_MS = 60_000;

export const overviewMachine = setup({
  types: {
    context: {} as OverviewContext,
    events: {} as OverviewEvent,
    input: {} as { now?: () => number } | undefined,
    tags: {} as 'busy' | 'error' | 'loaded',
  },
  actors: {
    loadOverview: fromPromise<Overview, { nowMs: number }>(notProvided('overview', 'loadOverview')),
  },
  actions: {
    readClock: assign({ nowMs: ({ context }) => context.clock() }),
  },
  delays: { overviewTick: OVERVIEW_TICK_MS },
}).createMachine({
  id: 'overview',
  context: ({ input }) => {
    const clock = input?.now ?? (() => Date.now());
    return { cards: [], appointments: [], error: null, nowMs: clock(), clock };
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      entry: 'readClock',
      invoke: {
        id: 'loadOverview',
        src: 'loadOverview',
        input: ({ context }) => ({ nowMs: context.nowMs }),
        onDone: {
          target: 'loaded',
          actions: assign({
            cards: ({ event }) => event.output.cards,
            appointments: ({ event }) => event.output.appointments,
            error: null,
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => ({ code: errorCodeOf(event.error) }) }),
        },
      },
    },
    loaded: {
      tags: ['loaded'],
      on: { 'overview.refresh': 'loading' },
      after: { overviewTick: { target: 'loaded', reenter: true, actions: 'readClock' } },
    },
    failed: { tags: ['error'], on: { 'overview.retry': 'loading' } },
  },
});
