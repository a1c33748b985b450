import { assign, fromPromise, setup } from 'xstate';
import { machineErrorOf } from './shared/failures';

/**
 * One action on a record that asks first (deactivate a coach, deactivate or reactivate a
 * user account): `action.ask` opens the question with what it would do, `action.confirm` runs
 * it, `action.abort` closes the question without a call. A failure stays on screen with retry;
 * success reports `notifyDone` (toast, reload) and closes.
 *
 * The screen supplies `runAction` (its API call) with `.provide()`; the payload is whatever
 * the screen passes with `action.ask` (e.g. `{ active: false }`).
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
    notifyDone: (_, _params: { payload: Readonly<Record<string, unknown>>; output: unknown }) => undefined,
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
    confirming: {
      tags: ['open'],
      on: {
        'action.confirm': 'running',
        'action.abort': { target: 'idle', actions: assign({ payload: null }) },
      },
    },
    running: {
      tags: ['busy', 'open'],
      invoke: {
        src: 'runAction',
        input: ({ context }) => context.payload ?? {},
        onDone: {
          target: 'idle',
          actions: [
            {
              type: 'notifyDone',
              params: ({ context, event }) => ({ payload: context.payload ?? {}, output: event.output }),
            },
            assign({ payload: null }),
          ],
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => machineErrorOf(event.error) }) },
      },
    },
    failed: {
      tags: ['error', 'open'],
      on: {
        'action.retry': { target: 'running', actions: assign({ error: null }) },
        'action.abort': { target: 'idle', actions: assign({ payload: null, error: null }) },
      },
    },
  },
});
