import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { errorCodeOf, notProvided } from './shared/failures';

/**
 * The newsletter list page (`/admin/mailing-list`): the last (or running) sync with its
 * result, the bounce counts, and "Jetzt abgleichen".
 *
 * loading → ready (or failed, with retry); `mailingList.sync` → starting → watching while the
 * job runs: every `syncPoll` the overview is read again (polling) until the sync is done or
 * failed, then ready. A refused start (409: running already, not configured) → startFailed,
 * from where the person may try again or reload. A sync already running when the page opens
 * is watched at once.
 */
export type MailingListOverview = components['schemas']['MailingListOverview'];
export type MailingListSync = components['schemas']['MailingListSync'];

export interface MailingListContext {
  overview: MailingListOverview | null;
  error: { code: string } | null;
}

export type MailingListEvent =
  { type: 'mailingList.sync' } | { type: 'mailingList.retry' } | { type: 'mailingList.refresh' };

/** How often a running sync's progress is read. */
export const SYNC_POLL_MS = 2_000;

const active = (sync: MailingListSync | null | undefined) =>
  sync?.status === 'queued' || sync?.status === 'running';

/** A fresh overview (first load or poll): watch on while a sync runs, else rest. */
const overviewLoaded = (() => {
  const keep = ({ event }: { event: { output: MailingListOverview } }) => ({
    overview: event.output,
  });
  return [
    {
      guard: { type: 'syncActive' as const, params: keep },
      target: 'watching',
      actions: { type: 'keepOverview' as const, params: keep },
    },
    { target: 'ready', actions: { type: 'keepOverview' as const, params: keep } },
  ];
})();

export const mailingListMachine = setup({
  types: {
    context: {} as MailingListContext,
    events: {} as MailingListEvent,
    tags: {} as 'busy' | 'error' | 'syncing' | 'loaded',
  },
  actors: {
    loadMailingList: fromPromise<MailingListOverview>(
      notProvided('mailingList', 'loadMailingList'),
    ),
    startMailingListSync: fromPromise<MailingListSync>(
      notProvided('mailingList', 'startMailingListSync'),
    ),
  },
  guards: {
    syncActive: (_, params: { overview: MailingListOverview }) => active(params.overview.sync),
    configured: ({ context }) => context.overview?.configured === true,
  },
  actions: {
    keepOverview: assign({
      overview: (_, params: { overview: MailingListOverview }) => params.overview,
      error: null,
    }),
    keepError: assign({
      error: (_, params: { error: unknown }) => ({ code: errorCodeOf(params.error) }),
    }),
    keepStartedSync: assign({
      overview: ({ context }, params: { sync: MailingListSync }) =>
        context.overview && { ...context.overview, sync: params.sync },
      error: null,
    }),
  },
  delays: { syncPoll: SYNC_POLL_MS },
}).createMachine({
  id: 'mailingList',
  context: { overview: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadMailingList',
        src: 'loadMailingList',
        onDone: overviewLoaded,
        onError: {
          target: 'failed',
          actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    failed: { tags: ['error'], on: { 'mailingList.retry': 'loading' } },
    ready: {
      tags: ['loaded'],
      on: {
        'mailingList.sync': { guard: 'configured', target: 'starting' },
        'mailingList.refresh': 'loading',
      },
    },
    starting: {
      tags: ['loaded', 'busy'],
      invoke: {
        id: 'startMailingListSync',
        src: 'startMailingListSync',
        onDone: {
          target: 'watching',
          actions: { type: 'keepStartedSync', params: ({ event }) => ({ sync: event.output }) },
        },
        onError: {
          target: 'startFailed',
          actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    startFailed: {
      tags: ['loaded', 'error'],
      on: {
        'mailingList.sync': { guard: 'configured', target: 'starting' },
        'mailingList.refresh': 'loading',
      },
    },
    watching: {
      tags: ['loaded', 'syncing'],
      after: { syncPoll: 'polling' },
    },
    polling: {
      tags: ['loaded', 'syncing'],
      invoke: {
        id: 'pollMailingList',
        src: 'loadMailingList',
        onDone: overviewLoaded,
        // A missed poll (network): keep watching, the next one may get through.
        onError: 'watching',
      },
    },
  },
});
