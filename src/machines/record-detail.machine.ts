import { assign, fromPromise, setup } from 'xstate';
import { machineErrorOf } from './shared/failures';

/**
 * One record shown read-only (a coach, a user): loading → shown, or failed with retry (no
 * retry for 404: the page says the record is not there). `detail.reload` loads again after an
 * action changed it; the record stays on screen meanwhile.
 *
 * The screen supplies `loadDetail` (its API call, id → record) with `.provide()`.
 */
export interface RecordDetailContext {
  id: string;
  record: unknown;
  error: { code: string; status?: number } | null;
}

export type RecordDetailEvent = { type: 'detail.retry' } | { type: 'detail.reload' };

export const recordDetailMachine = setup({
  types: {
    context: {} as RecordDetailContext,
    events: {} as RecordDetailEvent,
    input: {} as { id: string },
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadDetail: fromPromise<unknown, { id: string }>(() => {
      throw new Error('record detail machine: provide the "loadDetail" actor');
    }),
  },
  guards: {
    retryable: ({ context }) => context.error?.code !== 'not_found',
  },
}).createMachine({
  id: 'recordDetail',
  context: ({ input }) => ({ id: input.id, record: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadDetail',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'shown', actions: assign({ record: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => machineErrorOf(event.error) }) },
      },
    },
    shown: { on: { 'detail.reload': 'loading' } },
    failed: {
      tags: ['error'],
      on: { 'detail.retry': { guard: 'retryable', target: 'loading' } },
    },
  },
});

/** The record on screen, typed by the screen that supplied `loadDetail`. */
export const recordOf = <T>(context: Pick<RecordDetailContext, 'record'>): T | null => context.record as T | null;
