import {
  assign,
  type ErrorActorEvent,
  type EventObject,
  fromPromise,
  type MachineContext,
  setup,
} from 'xstate';
import { machineErrorOf } from './shared/failures';

/**
 * One action on a record that asks first (deactivate a coach, deactivate or reactivate a
 * user account): `action.ask` opens the question with what it would do, `action.confirm` runs
 * it, `action.abort` closes the question without a call. A failure stays on screen with retry;
 * success reports `notifyDone` (toast, reload) and closes.
 *
 * The screen supplies `runAction` (its API call) with `.provide()`; the payload is whatever
 * the screen passes with `action.ask` (e.g. `{ active: false }`).
 *
 * The appointment and client detail machines build their actions from the same pieces,
 * `actionStates().offering` (the buttons), `asking` (the open question) and `running` (the call).
 */
export interface ConfirmActionContext {
  /** What runs on confirm; null while no question is open. */
  payload: Readonly<Record<string, unknown>> | null;
  error: { code: string; status?: number } | null;
}

export type ConfirmActionEvent =
  | { type: 'action.ask'; payload: Readonly<Record<string, unknown>> }
  | { type: 'action.confirm' }
  | { type: 'action.abort' }
  | { type: 'action.retry' };

/**
 * State pieces of "ask → run → done or failed", typed for the machine that uses them.
 * - `asking`: the question is open; `confirm` goes on to `run`, `abort` back to `back`.
 * - `running`: invokes `src` with `input`; success takes `onDone` (the machine's own
 *   notification and target), a failure keeps its code in `errorField` and goes to `failed`.
 */
export const actionStates = <TContext extends MachineContext, TEvent extends EventObject>() => ({
  /**
   * The state that offers the actions: each event (while its guard allows) forgets the last
   * failure kept in `errorField` and goes to its state (a question or a call).
   */
  offering: <
    const TOffers extends Partial<Record<TEvent['type'], { guard: string; target: string }>>,
  >(
    errorField: keyof TContext & string,
    offers: TOffers,
  ) => {
    const clear = assign<TContext, TEvent, undefined, TEvent, never>(
      () => ({ [errorField]: null }) as Partial<TContext>,
    );
    return {
      on: Object.fromEntries(
        Object.entries(offers).map(([type, offer]) => [
          type,
          { ...(offer as object), actions: clear },
        ]),
      ) as {
        [K in keyof TOffers]: TOffers[K] & { actions: typeof clear };
      },
    };
  },
  asking: <const TTag extends string, TAbort>(o: {
    tags: TTag[];
    confirm: TEvent['type'];
    abort: TEvent['type'];
    run: string;
    back: string;
    /** Actions on abort (e.g. forget the payload). */
    onAbort?: TAbort;
  }) => ({
    tags: o.tags,
    on: {
      [o.confirm]: o.run,
      [o.abort]: o.onAbort === undefined ? o.back : { target: o.back, actions: o.onAbort },
    },
  }),
  running: <const TTag extends string, const TSrc extends string, TInput, TDone>(o: {
    tags: TTag[];
    /** The invoke id (names `xstate.done.actor.<id>`); default: xstate's own. */
    id?: string;
    src: TSrc;
    input: (args: { context: TContext }) => TInput;
    onDone: TDone;
    errorField: keyof TContext & string;
    failed: string;
  }) => ({
    tags: o.tags,
    invoke: {
      id: o.id,
      src: o.src,
      input: o.input,
      onDone: o.onDone,
      onError: {
        target: o.failed,
        actions: assign<TContext, ErrorActorEvent, undefined, TEvent, never>(
          ({ event }) => ({ [o.errorField]: machineErrorOf(event.error) }) as Partial<TContext>,
        ),
      },
    },
  }),
});

const confirm = actionStates<ConfirmActionContext, ConfirmActionEvent>();

export const confirmActionMachine = setup({
  types: {
    context: {} as ConfirmActionContext,
    events: {} as ConfirmActionEvent,
    tags: {} as 'busy' | 'error' | 'open',
  },
  actors: {
    runAction: fromPromise<unknown, Readonly<Record<string, unknown>>>(() => {
      throw new Error('confirm action machine: provide the "runAction" actor');
    }),
  },
  actions: {
    /** Success: the screen shows a toast and reloads what changed. */
    notifyDone: (_, _params: { payload: Readonly<Record<string, unknown>>; output: unknown }) =>
      undefined,
  },
}).createMachine({
  id: 'confirmAction',
  context: { payload: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'action.ask': {
          target: 'confirming',
          actions: assign({ payload: ({ event }) => event.payload, error: null }),
        },
      },
    },
    /** The question is open: confirm or abort. */
    confirming: confirm.asking({
      tags: ['open'],
      confirm: 'action.confirm',
      abort: 'action.abort',
      run: 'running',
      back: 'idle',
      onAbort: assign<
        ConfirmActionContext,
        ConfirmActionEvent,
        undefined,
        ConfirmActionEvent,
        never
      >({ payload: null }),
    }),
    running: confirm.running({
      tags: ['busy', 'open'],
      src: 'runAction',
      input: ({ context }) => context.payload ?? {},
      onDone: {
        target: 'idle',
        actions: [
          {
            type: 'notifyDone',
            params: ({
              context,
              event,
            }: {
              context: ConfirmActionContext;
              event: { output: unknown };
            }) => ({
              payload: context.payload ?? {},
              output: event.output,
            }),
          },
          assign({ payload: null }),
        ],
      },
      errorField: 'error',
      failed: 'failed',
    }),
    failed: {
      tags: ['error', 'open'],
      on: {
        'action.retry': { target: 'running', actions: assign({ error: null }) },
        'action.abort': { target: 'idle', actions: assign({ payload: null, error: null }) },
      },
    },
  },
});
