import { assign, fromPromise, setup } from 'xstate';
import { machineErrorOf, type MachineError } from './shared/failures';

/** One record a person can pick by name: its id (what filters send) and what they read. */
export interface PickerOption {
  id: string;
  label: string;
  detail?: string;
}

export interface RecordPickerContext {
  query: string;
  results: PickerOption[];
  chosen: PickerOption | null;
  error: MachineError | null;
}

export type RecordPickerEvent =
  | { type: 'picker.query'; query: string }
  | { type: 'picker.choose'; option: PickerOption }
  | { type: 'picker.clear' }
  | { type: 'picker.retry' };

/** Fewer letters than this match too much to be worth a request. */
export const MIN_QUERY = 2;

/**
 * Picks a record by typing its name (a client on `/events`, instead of pasting its id): typing
 * waits a moment (`searchDebounce`), then `search` asks the server; a choice becomes `chosen`.
 * Started with an id (from the URL), `resolve` first finds the name to show for it; if that
 * fails the id stays chosen and is shown as it is.
 */
export const recordPickerMachine = setup({
  types: {
    context: {} as RecordPickerContext,
    events: {} as RecordPickerEvent,
    input: {} as { chosenId?: string },
    tags: {} as 'busy' | 'results' | 'error',
  },
  actors: {
    search: fromPromise<PickerOption[], { query: string }>(() => {
      throw new Error('record picker: provide the "search" actor');
    }),
    resolve: fromPromise<PickerOption, { id: string }>(() => {
      throw new Error('record picker: provide the "resolve" actor');
    }),
  },
  delays: { searchDebounce: 300 },
  guards: {
    hasChosenId: ({ context }) => context.chosen !== null,
    queryLongEnough: ({ event }) =>
      event.type === 'picker.query' && event.query.trim().length >= MIN_QUERY,
  },
}).createMachine({
  id: 'recordPicker',
  context: ({ input }) => ({
    query: '',
    results: [],
    chosen: input?.chosenId ? { id: input.chosenId, label: input.chosenId } : null,
    error: null,
  }),
  initial: 'starting',
  on: {
    'picker.query': [
      {
        guard: 'queryLongEnough',
        target: '.debouncing',
        // Each keystroke starts the wait again.
        reenter: true,
        actions: assign({ query: ({ event }) => event.query }),
      },
      { target: '.idle', actions: assign({ query: ({ event }) => event.query, results: [] }) },
    ],
    'picker.clear': {
      target: '.idle',
      actions: assign({ chosen: null, query: '', results: [], error: null }),
    },
  },
  states: {
    starting: { always: [{ guard: 'hasChosenId', target: 'resolving' }, { target: 'idle' }] },
    resolving: {
      tags: ['busy'],
      invoke: {
        id: 'resolve',
        src: 'resolve',
        input: ({ context }) => ({ id: context.chosen!.id }),
        onDone: { target: 'idle', actions: assign({ chosen: ({ event }) => event.output }) },
        // The id stays chosen (it came from the URL); only its name is missing.
        onError: 'idle',
      },
    },
    idle: {},
    debouncing: { after: { searchDebounce: 'searching' } },
    searching: {
      tags: ['busy'],
      invoke: {
        id: 'search',
        src: 'search',
        input: ({ context }) => ({ query: context.query.trim() }),
        onDone: {
          target: 'results',
          actions: assign({ results: ({ event }) => event.output, error: null }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
        },
      },
    },
    results: {
      tags: ['results'],
      on: {
        'picker.choose': {
          target: 'idle',
          actions: assign({
            chosen: ({ event }) => event.option,
            query: '',
            results: [],
          }),
        },
      },
    },
    failed: { tags: ['error'], on: { 'picker.retry': 'searching' } },
  },
});
