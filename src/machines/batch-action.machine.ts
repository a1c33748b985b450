import { assertEvent, assign, fromCallback, fromPromise, setup } from 'xstate';
import { type MachineError, machineErrorOf, notProvided } from './shared/failures';

/**
 * One action on many records at once, all or nothing on the server (billing's batch approve,
 * cancel …; the clinical documentation's "complete"): pick records on the page or everything
 * the filter matches (one batch, at most 1,000), choose an action the whole selection allows,
 * confirm with the count (and sum), submit once, then the result. A 409 `batch_refused` names
 * each refused record: the screen shows them and offers to deselect them and submit the rest.
 * A network failure keeps the batch and its Idempotency-Key, so "retry" cannot apply it twice.
 * A changed filter drops the selection (it was made under the old one).
 *
 * Which action a status allows is data (`transitions`, the screen's table, e.g.
 * shared/billing-transitions.ts); the screen supplies `loadMatching` (the ids the filter
 * matches) and `submitBatch` (its API call) with `.provide()`.
 */

/** A selected record: what decides the allowed actions and the sum. */
export interface BatchItem {
  id: string;
  status: string;
  /** Gross cents, where records carry an amount (billing); the sum is shown only then. */
  amountCents?: number;
}

/** The list's filters as they stand in the URL (the status tab included). */
export type BatchFilter = Readonly<Record<string, string>>;

/** What `loadMatching` answers: the records the filter matches, up to one batch. */
export interface MatchingItems {
  items: readonly BatchItem[];
  /** Every record matching, also beyond the listed ones. */
  itemCount: number;
  capped: boolean;
}

export interface BatchRequest {
  action: string;
  ids: readonly string[];
  idempotencyKey: string;
}

/** One record the server refused (a 409 `batch_refused` error), as the conflict view lists it. */
export interface BatchConflict {
  id: string;
  /** Its status when refused (absent for an unknown id). */
  status?: string;
  /** not_found | invalid_transition | live_item_exists … */
  code: string;
}

export interface BatchInput {
  /** Per action, the statuses that allow it. An empty table: read-only, nothing to choose. */
  transitions: Readonly<Record<string, readonly string[]>>;
  filter: BatchFilter;
}

export interface BatchContext extends BatchInput {
  selected: readonly BatchItem[];
  /** `matching`: the selection is everything the filter matched (until one is toggled). */
  scope: 'picked' | 'matching';
  /** How many matched when everything was selected (more than selected when capped). */
  matchingCount: number;
  action: string | null;
  /** One per batch sent; kept across a retry of the same batch. */
  idempotencyKey: string | null;
  result: { action: string; count: number } | null;
  conflicts: readonly BatchConflict[];
  error: MachineError | null;
}

export type BatchEvent =
  | { type: 'batch.toggle'; item: BatchItem }
  /** Selects every given record (the page's rows) or, with `selected: false`, deselects them. */
  | { type: 'batch.page'; items: readonly BatchItem[]; selected: boolean }
  | { type: 'batch.selectMatching' }
  | { type: 'batch.clear' }
  | { type: 'batch.filter'; filter: BatchFilter }
  | { type: 'batch.choose'; action: string }
  | { type: 'batch.confirm' }
  /** Closes the question, the conflict or the failure; the selection stays. */
  | { type: 'batch.back' }
  | { type: 'batch.retry' }
  | { type: 'batch.deselectConflicts' };

/** The actions every selected record allows, in table order (none for an empty selection). */
export function allowedActions(context: Pick<BatchContext, 'transitions' | 'selected'>): string[] {
  if (context.selected.length === 0) return [];
  return Object.entries(context.transitions)
    .filter(([, from]) => context.selected.every((item) => from.includes(item.status)))
    .map(([action]) => action);
}

/** The sum of the selected amounts; null when the records carry none. */
export function selectionSum(context: Pick<BatchContext, 'selected'>): number | null {
  if (context.selected.some((item) => item.amountCents === undefined)) return null;
  return context.selected.reduce((sum, item) => sum + item.amountCents!, 0);
}

/** The refused records of a 409 `batch_refused` (errors naming an id), or null for any other failure. */
export function conflictsOf(error: unknown): BatchConflict[] | null {
  const e = error as { status?: unknown; code?: unknown; fieldErrors?: unknown } | undefined;
  if (e?.status !== 409 || e.code !== 'batch_refused' || !Array.isArray(e.fieldErrors)) return null;
  const conflicts = (e.fieldErrors as Array<{ id?: string; status?: string; code: string }>)
    .filter((f) => typeof f.id === 'string')
    .map((f) => ({
      id: f.id!,
      code: f.code,
      ...(f.status === undefined ? {} : { status: f.status }),
    }));
  return conflicts.length > 0 ? conflicts : null;
}

const sameFilter = (a: BatchFilter, b: BatchFilter) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

const EMPTY_SELECTION = {
  selected: [],
  scope: 'picked',
  matchingCount: 0,
  action: null,
  idempotencyKey: null,
  conflicts: [],
  error: null,
} as const;

const batchSetup = setup({
  types: {
    context: {} as BatchContext,
    events: {} as BatchEvent,
    input: {} as BatchInput,
    tags: {} as
      'busy' | 'open' | 'error' | 'conflict' | 'done' | 'loadingMatching' | 'matchingFailed',
  },
  actors: {
    loadMatching: fromPromise<MatchingItems, BatchFilter>(
      notProvided('batch action', 'loadMatching'),
    ),
    submitBatch: fromPromise<{ count: number }, BatchRequest>(
      notProvided('batch action', 'submitBatch'),
    ),
    /**
     * Sends `batch.filter` whenever the list's filters change, for as long as the machine
     * runs. The default watches nothing: a screen without a list sends the event itself.
     */
    watchFilter: fromCallback<BatchEvent>(() => undefined),
  },
  actions: {
    /** The batch went through: the screen reloads its rows (and may announce it). */
    notifyDone: (_, _params: { action: string; count: number }) => undefined,
    toggle: assign(({ context, event }) => {
      assertEvent(event, 'batch.toggle');
      const { item } = event;
      const has = context.selected.some((s) => s.id === item.id);
      return {
        selected: has
          ? context.selected.filter((s) => s.id !== item.id)
          : [...context.selected, item],
        scope: 'picked' as const,
        result: null,
      };
    }),
    page: assign(({ context, event }) => {
      assertEvent(event, 'batch.page');
      const { items, selected } = event;
      const ids = new Set(items.map((i) => i.id));
      const rest = context.selected.filter((s) => !ids.has(s.id));
      return {
        selected: selected ? [...rest, ...items] : rest,
        scope: 'picked' as const,
        result: null,
      };
    }),
    clear: assign({ ...EMPTY_SELECTION, result: null }),
    resetSelection: assign(({ event }) => {
      assertEvent(event, 'batch.filter');
      return { ...EMPTY_SELECTION, filter: event.filter, result: null };
    }),
    newKey: assign({ idempotencyKey: () => crypto.randomUUID() }),
  },
  guards: {
    filterChanged: ({ context, event }) => {
      assertEvent(event, 'batch.filter');
      return !sameFilter(context.filter, event.filter);
    },
    allowed: ({ context, event }) => {
      assertEvent(event, 'batch.choose');
      return allowedActions(context).includes(event.action);
    },
    /** Something is left after the refused records go, and it still allows the action. */
    restAllowed: ({ context }) => {
      const refused = new Set(context.conflicts.map((c) => c.id));
      const selected = context.selected.filter((s) => !refused.has(s.id));
      return (
        context.action !== null && allowedActions({ ...context, selected }).includes(context.action)
      );
    },
  },
});

/** The filter changed: forget the selection made under the old one. */
const resetOnFilter = {
  guard: 'filterChanged',
  target: '#batchAction.selecting',
  actions: 'resetSelection',
} as const;

/** Picking records: from the list, and after a result (which it then hides). */
const picking = {
  'batch.toggle': { target: '#batchAction.selecting', actions: 'toggle' },
  'batch.page': { target: '#batchAction.selecting', actions: 'page' },
  'batch.clear': { target: '#batchAction.selecting', actions: 'clear' },
  'batch.selectMatching': '#batchAction.loadingMatching',
} as const;

export const batchActionMachine = batchSetup.createMachine({
  id: 'batchAction',
  context: ({ input }) => ({
    transitions: input.transitions,
    filter: input.filter,
    ...EMPTY_SELECTION,
    result: null,
  }),
  invoke: { id: 'watchFilter', src: 'watchFilter' },
  initial: 'selecting',
  states: {
    /** The list with its checkboxes; the bar offers the actions the whole selection allows. */
    selecting: {
      on: {
        ...picking,
        'batch.filter': resetOnFilter,
        'batch.choose': {
          guard: 'allowed',
          target: 'confirming',
          actions: assign({ action: ({ event }) => event.action }),
        },
      },
    },
    /** Asking the server for every record the filter matches. */
    loadingMatching: {
      tags: ['busy', 'loadingMatching'],
      invoke: {
        id: 'loadMatching',
        src: 'loadMatching',
        input: ({ context }) => context.filter,
        onDone: {
          target: 'selecting',
          actions: assign(({ event }) => ({
            selected: event.output.items,
            scope: 'matching' as const,
            matchingCount: event.output.itemCount,
            result: null,
          })),
        },
        onError: {
          target: 'matchingFailed',
          actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
        },
      },
      on: {
        'batch.filter': resetOnFilter,
        'batch.clear': { target: 'selecting', actions: 'clear' },
      },
    },
    matchingFailed: {
      tags: ['error', 'matchingFailed'],
      on: {
        ...picking,
        'batch.filter': resetOnFilter,
        'batch.retry': { target: 'loadingMatching', actions: assign({ error: null }) },
        'batch.back': { target: 'selecting', actions: assign({ error: null }) },
      },
    },
    /** "42 Positionen (3.150,00 €) freigeben?" */
    confirming: {
      tags: ['open'],
      on: {
        'batch.confirm': { target: 'submitting', actions: 'newKey' },
        'batch.back': { target: 'selecting', actions: assign({ action: null }) },
        'batch.filter': resetOnFilter,
      },
    },
    submitting: {
      tags: ['busy', 'open'],
      invoke: {
        id: 'submitBatch',
        src: 'submitBatch',
        input: ({ context }) => ({
          action: context.action!,
          ids: context.selected.map((s) => s.id),
          idempotencyKey: context.idempotencyKey!,
        }),
        onDone: {
          target: 'done',
          actions: [
            assign(({ context, event }) => ({
              ...EMPTY_SELECTION,
              result: { action: context.action!, count: event.output.count },
            })),
            {
              type: 'notifyDone',
              params: ({ context }: { context: BatchContext }) => context.result!,
            },
          ],
        },
        onError: [
          {
            guard: ({ event }) => conflictsOf(event.error) !== null,
            target: 'conflict',
            actions: assign({ conflicts: ({ event }) => conflictsOf(event.error)! }),
          },
          {
            target: 'failed',
            actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
          },
        ],
      },
      // The batch is on its way; a new filter applies to the list, the selection ends with it.
      on: { 'batch.filter': { actions: assign({ filter: ({ event }) => event.filter }) } },
    },
    /** "42 Positionen freigegeben"; the selection is empty, the list reloaded. */
    done: {
      tags: ['done'],
      on: {
        ...picking,
        'batch.filter': resetOnFilter,
        'batch.back': { target: 'selecting', actions: assign({ result: null }) },
      },
    },
    /** Nothing changed: the server refused these records (each with its status and reason). */
    conflict: {
      tags: ['conflict', 'open'],
      on: {
        'batch.deselectConflicts': [
          {
            guard: 'restAllowed',
            target: 'submitting',
            actions: [
              assign(({ context }) => {
                const refused = new Set(context.conflicts.map((c) => c.id));
                return {
                  selected: context.selected.filter((s) => !refused.has(s.id)),
                  scope: 'picked' as const,
                  conflicts: [],
                };
              }),
              'newKey',
            ],
          },
          {
            target: 'selecting',
            actions: assign(({ context }) => {
              const refused = new Set(context.conflicts.map((c) => c.id));
              return {
                selected: context.selected.filter((s) => !refused.has(s.id)),
                scope: 'picked' as const,
                conflicts: [],
                action: null,
              };
            }),
          },
        ],
        'batch.back': { target: 'selecting', actions: assign({ conflicts: [], action: null }) },
        'batch.filter': resetOnFilter,
      },
    },
    /** The answer did not arrive: the same batch (same key) can be sent again. */
    failed: {
      tags: ['error', 'open'],
      on: {
        'batch.retry': { target: 'submitting', actions: assign({ error: null }) },
        'batch.back': {
          target: 'selecting',
          actions: assign({ error: null, action: null, idempotencyKey: null }),
        },
        'batch.filter': resetOnFilter,
      },
    },
  },
});
