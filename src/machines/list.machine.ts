import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { machineErrorOf } from './shared/failures';

/**
 * The one list machine every staff list uses (appointments, clients, coaches, users, events,
 * cancel picker …): load, page, filter, sort, empty, error, retry, and URL sync.
 *
 * The query (page, page size, filters, sort) lives in the URL: the page parses it into the
 * machine's input, the machine pushes every change the person makes back with `syncUrl`, and
 * the browser's back and forward buttons come in as `url.change`. A change that leaves the query
 * as it was sends nothing; every other change sends exactly one request (`loadPage`); a
 * response to a query that was already replaced is dropped (the stale call's actor is stopped
 * and its fetch aborted).
 *
 * The screen supplies `loadPage` (its API call) with `.provide()`; rows are the screen's own
 * type, read back with `rowsOf<Row>()`.
 *
 * Fresh data without a reload (specification, "Data fetching": retry interval 5 s, focus
 * throttle 5 s): `watchFocus` reports the window regaining focus as `list.focus`, which loads
 * the same query again once the rows on screen are at least 5 s old (or after a failure); a
 * network failure (or a 5xx) is retried by itself after 5 s, at most `MAX_AUTO_RETRIES` times
 * in a row, while "Erneut versuchen" stays available.
 */

/** Filter and sort values as they stand in the URL (`?type=initial&sortDirection=desc`). */
export type ListFilters = Readonly<Record<string, string>>;

export interface ListQuery {
  page: number;
  limit: number;
  filters: ListFilters;
}

/** What `loadPage` answers. */
export interface ListPage<Row = unknown> {
  rows: readonly Row[];
  itemCount: number;
  /** The server counts at most 1,000 matches ("mehr als 1.000"). */
  itemCountCapped?: boolean;
  /** What the screen shows beside the rows for the same query (billing's totals per tab). */
  summary?: unknown;
}

/** Which filter keys hold the sort (`sortBy`/`sortOrder`, or only `sortDirection`). */
export interface SortKeys {
  by?: string;
  order: string;
}

export interface ListInput {
  query: ListQuery;
  /** Page size when the URL names none (10, the specification's default). */
  defaultLimit?: number;
  sortKeys?: SortKeys;
}

export interface ListContext {
  query: ListQuery;
  defaultLimit: number;
  sortKeys: SortKeys;
  rows: readonly unknown[];
  itemCount: number;
  itemCountCapped: boolean;
  /** The answer's `summary` (null when the screen's `loadPage` gives none). */
  summary: unknown;
  /** The query the rows on screen belong to (null before the first answer). */
  shownQuery: ListQuery | null;
  error: { code: string; status?: number } | null;
  /** The rows on screen are old enough that regaining focus loads them again. */
  focusReady: boolean;
  /** Automatic retries since the last answer or the person's last action. */
  autoRetries: number;
}

export type ListEvent =
  | { type: 'list.page'; page: number }
  /** Sets the given filters (empty or undefined removes one) and goes back to page 1. */
  | { type: 'list.filter'; filters: Readonly<Record<string, string | undefined>> }
  | { type: 'list.sort'; by?: string; order: 'asc' | 'desc' }
  /** Removes every filter (sort and page size stay). */
  | { type: 'list.clear' }
  | { type: 'list.retry' }
  | { type: 'list.reload' }
  /** The window regained focus (or the tab became visible again). */
  | { type: 'list.focus' }
  /** The URL changed outside the machine (back, forward, a link to the same page). */
  | { type: 'url.change'; query: ListQuery };

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
/** Specification: retry interval and focus throttle, both 5 s. */
export const RETRY_INTERVAL_MS = 5_000;
export const FOCUS_THROTTLE_MS = 5_000;
/** After this many automatic retries in a row the list waits for the person (or focus). */
export const MAX_AUTO_RETRIES = 5;
const MAX_PAGE = 100_000;

/** Drops empty values and orders keys, so equal queries compare equal. */
function cleanFilters(filters: Readonly<Record<string, string | undefined>>): ListFilters {
  const clean: Record<string, string> = {};
  for (const key of Object.keys(filters).sort()) {
    const value = filters[key];
    if (value !== undefined && value !== '') clean[key] = value;
  }
  return clean;
}

export function sameQuery(a: ListQuery, b: ListQuery): boolean {
  return (
    a.page === b.page &&
    a.limit === b.limit &&
    JSON.stringify(cleanFilters(a.filters)) === JSON.stringify(cleanFilters(b.filters))
  );
}

/** `?page=2&type=initial` for a query: page 1 and the default page size are left out. */
export function searchOf(query: ListQuery, defaultLimit = DEFAULT_PAGE_SIZE): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(cleanFilters(query.filters))) params.set(key, value);
  if (query.limit !== defaultLimit) params.set('limit', String(query.limit));
  if (query.page !== 1) params.set('page', String(query.page));
  const search = params.toString();
  return search ? `?${search}` : '';
}

/**
 * Reads a list query from the URL (zod: what comes from outside is parsed). `filters` is the
 * screen's schema of its filter keys, each optional; values it rejects are dropped, keys it
 * does not name are ignored, so a hand-edited URL never reaches the API as bad input.
 */
export function parseListSearch(
  search: string | URLSearchParams,
  filters: z.ZodObject<Record<string, z.ZodType<string | undefined>>>,
  defaultLimit = DEFAULT_PAGE_SIZE,
): ListQuery {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const raw = Object.fromEntries(params.entries());
  const page = z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE)
    .catch(1)
    .parse(raw.page ?? 1);
  const limit = z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .catch(defaultLimit)
    .parse(raw.limit ?? defaultLimit);
  const parsed: Record<string, string | undefined> = {};
  for (const [key, schema] of Object.entries(filters.shape)) {
    const result = schema.safeParse(raw[key]);
    parsed[key] = result.success ? result.data : undefined;
  }
  return { page, limit, filters: cleanFilters(parsed) };
}

/** A filter value that must be one of `values` (else dropped). */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values).optional().catch(undefined) as z.ZodType<T[number] | undefined>;
/** `true` or `false`. */
export const yesNo = oneOf(['true', 'false']);
/** Free text up to `max` characters, trimmed. */
export const text = (max: number) =>
  z.string().trim().max(max).optional().catch(undefined) as z.ZodType<string | undefined>;
/** A UUID (a coach, a client). */
export const uuid = z.uuid().optional().catch(undefined) as z.ZodType<string | undefined>;
/** A calendar date `YYYY-MM-DD`. */
export const isoDate = z.iso.date().optional().catch(undefined) as z.ZodType<string | undefined>;
/** A whole number in `[min, max]`, kept as its text. */
export const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/)
    .refine((s) => Number(s) >= min && Number(s) <= max)
    .optional()
    .catch(undefined) as z.ZodType<string | undefined>;

/** The rows on screen, typed by the screen that supplied `loadPage`. */
export const rowsOf = <Row>(context: Pick<ListContext, 'rows'>): readonly Row[] =>
  context.rows as readonly Row[];

/** Number of pages for the count on screen (at least 1). */
export const pageCount = (context: Pick<ListContext, 'itemCount' | 'query'>): number =>
  Math.max(1, Math.ceil(context.itemCount / context.query.limit));

/** The query an event asks for (undefined: the event does not change the query). */
function nextQuery(context: ListContext, event: ListEvent): ListQuery | undefined {
  const { query } = context;
  switch (event.type) {
    case 'list.page':
      if (!Number.isInteger(event.page) || event.page < 1 || event.page > MAX_PAGE)
        return undefined;
      return { ...query, page: event.page };
    case 'list.filter':
      return { ...query, page: 1, filters: cleanFilters({ ...query.filters, ...event.filters }) };
    case 'list.sort': {
      const { by, order } = context.sortKeys;
      const sort: Record<string, string | undefined> = { [order]: event.order };
      if (by && event.by) sort[by] = event.by;
      return { ...query, page: 1, filters: cleanFilters({ ...query.filters, ...sort }) };
    }
    case 'list.clear': {
      const { by, order } = context.sortKeys;
      const kept: Record<string, string | undefined> = { [order]: query.filters[order] };
      if (by) kept[by] = query.filters[by];
      return { ...query, page: 1, filters: cleanFilters(kept) };
    }
    case 'url.change':
      return { ...event.query, filters: cleanFilters(event.query.filters) };
    default:
      return undefined;
  }
}

const changesQuery = ({ context, event }: { context: ListContext; event: ListEvent }) => {
  const next = nextQuery(context, event);
  return next !== undefined && !sameQuery(next, context.query);
};

const listSetup = setup({
  types: {
    context: {} as ListContext,
    events: {} as ListEvent,
    input: {} as ListInput,
    tags: {} as 'busy' | 'error' | 'empty' | 'loaded',
  },
  actors: {
    loadPage: fromPromise<ListPage, ListQuery>(() => {
      throw new Error('list machine: provide the "loadPage" actor');
    }),
    /** Sends `list.focus` when the window regains focus; the app provides the listener. */
    watchFocus: fromCallback<ListEvent>(() => undefined),
  },
  delays: { retryInterval: RETRY_INTERVAL_MS, focusThrottle: FOCUS_THROTTLE_MS },
  actions: {
    /** Writes the query into the URL (the page pushes a history entry). */
    syncUrl: (_, _params: { search: string }) => undefined,
    adoptQuery: assign(({ context, event }) => ({
      query: nextQuery(context, event) ?? context.query,
    })),
    /** The answer's rows and count, for the query that asked (empty or not). */
    showPage: assign(({ context, event }) => {
      const page = (event as unknown as { output: ListPage }).output;
      return {
        rows: page.rows,
        itemCount: page.itemCount,
        itemCountCapped: page.itemCountCapped ?? false,
        summary: page.summary ?? null,
        shownQuery: context.query,
        error: null,
        focusReady: false,
        autoRetries: 0,
      };
    }),
    resetRetries: assign({ autoRetries: 0 }),
  },
  guards: {
    changesQuery,
    noRows: ({ event }) =>
      'output' in event && (event.output as ListPage | undefined)?.rows.length === 0,
    focusReady: ({ context }) => context.focusReady,
    /** No answer at all or a server fault: worth asking again; a 4xx answer would not change. */
    transient: ({ context }) =>
      context.autoRetries < MAX_AUTO_RETRIES &&
      (context.error?.code === 'network_error' ||
        context.error?.status === undefined ||
        context.error.status >= 500),
  },
});

/** A change the person made: adopt it, write it into the URL, load it. */
const userChange = {
  guard: 'changesQuery',
  target: '.loading',
  reenter: true,
  actions: [
    'adoptQuery',
    'resetRetries',
    {
      type: 'syncUrl',
      params: ({ context }: { context: ListContext }) => ({
        search: searchOf(context.query, context.defaultLimit),
      }),
    },
  ],
} as const;

export const listMachine = listSetup.createMachine({
  id: 'list',
  context: ({ input }) => ({
    query: { ...input.query, filters: cleanFilters(input.query.filters) },
    defaultLimit: input.defaultLimit ?? DEFAULT_PAGE_SIZE,
    sortKeys: input.sortKeys ?? { order: 'sortOrder' },
    rows: [],
    itemCount: 0,
    itemCountCapped: false,
    summary: null,
    shownQuery: null,
    error: null,
    focusReady: false,
    autoRetries: 0,
  }),
  invoke: { id: 'watchFocus', src: 'watchFocus' },
  initial: 'loading',
  on: {
    // From any state: a changed query loads again; a pending older call is dropped.
    'list.page': userChange,
    'list.filter': userChange,
    'list.sort': userChange,
    'list.clear': userChange,
    // The URL is already there: adopt it, do not push it again.
    'url.change': {
      guard: 'changesQuery',
      target: '.loading',
      reenter: true,
      actions: ['adoptQuery', 'resetRetries'],
    },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => context.query,
        onDone: [
          { guard: 'noRows', target: 'empty', actions: 'showPage' },
          { target: 'loaded', actions: 'showPage' },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
        },
      },
    },
    loaded: {
      tags: ['loaded'],
      after: { focusThrottle: { actions: assign({ focusReady: true }) } },
      on: { 'list.reload': 'loading', 'list.focus': { guard: 'focusReady', target: 'loading' } },
    },
    /** No rows match (or the page is past the last one). */
    empty: {
      tags: ['empty'],
      after: { focusThrottle: { actions: assign({ focusReady: true }) } },
      on: { 'list.reload': 'loading', 'list.focus': { guard: 'focusReady', target: 'loading' } },
    },
    failed: {
      tags: ['error'],
      after: {
        retryInterval: {
          guard: 'transient',
          target: 'loading',
          actions: assign({ autoRetries: ({ context }) => context.autoRetries + 1 }),
        },
      },
      on: {
        'list.retry': { target: 'loading', actions: 'resetRetries' },
        'list.reload': { target: 'loading', actions: 'resetRetries' },
        'list.focus': { target: 'loading', actions: 'resetRetries' },
      },
    },
  },
});
