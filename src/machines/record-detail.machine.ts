import {
  assign,
  type DoneActorEvent,
  type ErrorActorEvent,
  type EventObject,
  fromPromise,
  setup,
} from 'xstate';
import { actionStates } from './confirm-action.machine';
import { machineErrorOf, type MachineError } from './shared/failures';

/**
 * One record shown read-only (a coach, a user): loading → shown, or failed with retry (no
 * retry for 404: the page says the record is not there). `detail.reload` loads again after an
 * action changed it; the record stays on screen meanwhile.
 *
 * The screen supplies `loadDetail` (its API call, id → record) with `.provide()`. The
 * appointment and client detail machines are built from the same `detailLoadStates`, so every
 * detail page loads, fails and retries alike.
 */
export interface RecordDetailContext<R = unknown> {
  id: string;
  /** The record as last loaded; it stays while the page loads it again. */
  record: R | null;
  error: MachineError | null;
}

export type RecordDetailEvent = { type: 'detail.retry' } | { type: 'detail.reload' };

/** Retry, except for a record that is not there (or not visible to this person). */
export const retryable = ({ context }: { context: Pick<RecordDetailContext, 'error'> }) =>
  context.error?.code !== 'not_found';

/**
 * `loading` (invokes `loadDetail` with the context's `id` and `inputOf`'s extra fields, then
 * goes to `shown`) and `failed` (`detail.retry` loads again while the `retryable` guard,
 * declared by the machine, allows). A machine spreads them into its `states`.
 */
export const detailLoadStates = <
  TContext extends RecordDetailContext,
  TEvent extends EventObject,
  TExtra extends object = object,
>(
  shown: string,
  inputOf: (context: TContext) => TExtra = () => ({}) as TExtra,
) => ({
  loading: {
    tags: ['busy' as const, 'loading' as const],
    invoke: {
      id: 'loadDetail',
      src: 'loadDetail' as const,
      input: ({ context }: { context: TContext }): { id: string } & TExtra => ({
        id: context.id,
        ...inputOf(context),
      }),
      onDone: {
        target: shown,
        actions: assign<TContext, DoneActorEvent, undefined, TEvent, never>(
          ({ event }) => ({ record: event.output, error: null }) as Partial<TContext>,
        ),
      },
      onError: {
        target: 'failed',
        actions: assign<TContext, ErrorActorEvent, undefined, TEvent, never>(
          ({ event }) => ({ error: machineErrorOf(event.error) }) as Partial<TContext>,
        ),
      },
    },
  },
  failed: {
    tags: ['error' as const],
    on: { 'detail.retry': { guard: 'retryable' as const, target: 'loading' } },
  },
});

/**
 * An action's call on a detail page (appointment, client), offered from its `idle` state:
 * success announces `action` with the machine's `notify` and goes to `then` (mostly the
 * machine's `loading`: the record loads again and shows what the action changed); a failure
 * keeps its code in `actionError` and goes back to `idle`, where the message shows.
 */
export const detailActionCall = <
  TContext extends RecordDetailContext & { actionError: MachineError | null },
  TEvent extends EventObject,
>() => {
  const action = actionStates<TContext, TEvent>();
  return <const TTag extends string, const TSrc extends string, TInput, const TAction>(o: {
    tags: TTag[];
    /** The invoke id (names `xstate.done.actor.<id>`); default: `src`. */
    id?: string;
    src: TSrc;
    input: (args: { context: TContext }) => TInput;
    action: TAction;
    then: string;
  }) =>
    action.running({
      tags: o.tags,
      id: o.id ?? o.src,
      src: o.src,
      input: o.input,
      onDone: {
        target: o.then,
        actions: { type: 'notify' as const, params: { action: o.action } },
      },
      errorField: 'actionError',
      failed: 'idle',
    });
};

export const recordDetailMachine = setup({
  types: {
    context: {} as RecordDetailContext,
    events: {} as RecordDetailEvent,
    input: {} as { id: string },
    tags: {} as 'busy' | 'error' | 'loading',
  },
  actors: {
    loadDetail: fromPromise<unknown, { id: string }>(() => {
      throw new Error('record detail machine: provide the "loadDetail" actor');
    }),
  },
  guards: { retryable },
}).createMachine({
  id: 'recordDetail',
  context: ({ input }) => ({ id: input.id, record: null, error: null }),
  initial: 'loading',
  states: {
    ...detailLoadStates<RecordDetailContext, RecordDetailEvent>('shown'),
    shown: { on: { 'detail.reload': 'loading' } },
  },
});

/** The record on screen, typed by the screen that supplied `loadDetail`. */
export const recordOf = <T>(context: Pick<RecordDetailContext, 'record'>): T | null =>
  context.record as T | null;
