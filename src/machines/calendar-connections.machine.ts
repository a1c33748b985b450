import { and, assign, fromPromise, not, setup, stateIn } from 'xstate';
import type { components } from '../../shared/contract/product';
import { machineErrorOf, notProvided, type MachineError } from './shared/failures';
import { keyFor, type WriteKey } from './shared/write-key';

/**
 * "Verbundene Kalender" on a coach's profile: the CalDAV connections with their state, the form
 * that connects another account (server address, user name, app password), choosing per
 * calendar whether it blocks the free slots and which one receives the appointments, the
 * all-day setting, "Jetzt abgleichen", and disconnecting (asks first: the stored password and
 * the kept busy times are deleted).
 *
 * A sync runs in the background on the server, so after a change or "Jetzt abgleichen" the
 * `watch` region reloads the list a few times until the server has tried that connection; it
 * only copies the sync state (never the choices, which the `work` region owns), so a reload
 * that crosses a save cannot undo it.
 *
 * The screen supplies the API calls as the named actors with `.provide()`.
 */
export type CalendarConnection = components['schemas']['CalendarConnection'];
export type CreateCalendarConnectionRequest =
  components['schemas']['CreateCalendarConnectionRequest'];
export type UpdateCalendarConnectionRequest =
  components['schemas']['UpdateCalendarConnectionRequest'];

export type ConnectField = 'serverUrl' | 'username' | 'password';
export type ConnectDraft = Record<ConnectField, string>;

export interface CreateConnectionInput {
  coachId: string;
  idempotencyKey: string;
  body: CreateCalendarConnectionRequest;
}
export interface UpdateConnectionInput {
  coachId: string;
  connectionId: string;
  body: UpdateCalendarConnectionRequest;
}
export interface ConnectionInput {
  coachId: string;
  connectionId: string;
}

export interface CalendarConnectionsContext {
  coachId: string;
  connections: CalendarConnection[];
  /** Whether the connect form is shown (at once when there is no connection yet). */
  formOpen: boolean;
  draft: ConnectDraft;
  /** Error codes by field: empty fields, and the server's refusal at the field it concerns. */
  fieldErrors: Partial<Record<ConnectField, string>>;
  /** A failed load, save, sync or disconnect (the connect form's errors are field errors). */
  error: MachineError | null;
  writeKey: WriteKey | null;
  /** The change being saved, or the connection being synced or disconnected. */
  change: UpdateConnectionInput | null;
  target: string | null;
  /** Connections whose sync was queued, with their `lastAttemptAt` at that moment. */
  watching: Record<string, string | null>;
  polls: number;
  /** When the shown state was last read from the server (what "vor 5 Minuten" counts from). */
  readAt: number;
}

export type CalendarConnectionsEvent =
  | { type: 'list.retry' }
  | { type: 'form.open' }
  | { type: 'form.close' }
  | { type: 'form.change'; field: ConnectField; value: string }
  | { type: 'form.submit' }
  | { type: 'calendar.block'; connectionId: string; calendarId: string; blocks: boolean }
  | { type: 'calendar.receive'; connectionId: string; calendarId: string | null }
  | {
      type: 'setting.set';
      connectionId: string;
      setting: Pick<UpdateCalendarConnectionRequest, 'allDayBlocks' | 'shareClientFirstName'>;
    }
  | { type: 'connection.sync'; connectionId: string }
  | { type: 'connection.disconnect'; connectionId: string }
  | { type: 'disconnect.confirm' }
  | { type: 'disconnect.abort' };

/** How often and how many times the list is reloaded while a queued sync has not run yet. */
export const POLL_MS = 2_000;
export const MAX_POLLS = 15;

const EMPTY: ConnectDraft = { serverUrl: '', username: '', password: '' };

/** Which field a refusal of the calendar server concerns (the others are about the account). */
const FIELD_OF_CODE: Record<string, ConnectField> = {
  calendar_server_refused: 'serverUrl',
  calendar_unreachable: 'serverUrl',
  calendar_not_caldav: 'serverUrl',
  calendar_unauthorized: 'password',
  too_many: 'serverUrl',
};

/** The connect call's failure as field errors: the problem's code, or each named field. */
export function connectErrorsOf(error: unknown): Partial<Record<ConnectField, string>> {
  const e = error as { code?: string; fieldErrors?: Array<{ field: string; code: string }> };
  const result: Partial<Record<ConnectField, string>> = {};
  for (const f of e?.fieldErrors ?? []) {
    const bare = f.field.split(/[./]/).filter(Boolean).at(-1) as ConnectField | undefined;
    if (bare && bare in EMPTY) result[bare] ??= f.code;
  }
  const field = e?.code ? FIELD_OF_CODE[e.code] : undefined;
  if (field && !result[field]) result[field] = e.code!;
  return result;
}

/** Empty fields (the server checks the rest). */
export function missingFields(draft: ConnectDraft): Partial<Record<ConnectField, string>> {
  const result: Partial<Record<ConnectField, string>> = {};
  for (const field of Object.keys(EMPTY) as ConnectField[]) {
    if (!draft[field].trim()) result[field] = 'value_missing';
  }
  if (draft.serverUrl.trim() && !/^https?:\/\/\S+$/i.test(draft.serverUrl.trim())) {
    result.serverUrl = 'invalid_server_url';
  }
  return result;
}

const bodyOf = (draft: ConnectDraft): CreateCalendarConnectionRequest => ({
  serverUrl: draft.serverUrl.trim(),
  username: draft.username.trim(),
  password: draft.password,
  // All-day events block by default; the coach can turn it off once the calendars are shown.
  allDayBlocks: true,
  // The client's first name stays out of the coach's calendar until the coach chooses it.
  shareClientFirstName: false,
});

const replace = (list: CalendarConnection[], next: CalendarConnection) =>
  list.map((c) => (c.id === next.id ? next : c));

/** The sync state of a reloaded connection, onto the one shown (choices stay as shown). */
const SYNC_FIELDS = ['status', 'errorCode', 'lastSyncedAt', 'lastAttemptAt', 'busyTimes'] as const;

const watch = (context: CalendarConnectionsContext, connection: CalendarConnection) => ({
  ...context.watching,
  [connection.id]: context.watching[connection.id] ?? connection.lastAttemptAt,
});

type ChoiceEvent = Extract<
  CalendarConnectionsEvent,
  { type: 'calendar.block' | 'calendar.receive' | 'setting.set' }
>;

/**
 * The update a coach's choice on a connection saves, built in one place for every switch
 * (blocks, receives, the settings): each sends only the field it changes.
 */
export function choiceChange(
  context: Pick<CalendarConnectionsContext, 'coachId' | 'connections'>,
  event: ChoiceEvent,
): UpdateConnectionInput {
  const change = (body: UpdateCalendarConnectionRequest) => ({
    coachId: context.coachId,
    connectionId: event.connectionId,
    body,
  });
  switch (event.type) {
    case 'calendar.block': {
      // The server takes the whole set of blocking calendars: the shown ones with this one flipped.
      const connection = context.connections.find((c) => c.id === event.connectionId);
      const ids = (connection?.calendars ?? [])
        .filter((c) => (c.id === event.calendarId ? event.blocks : c.blocks))
        .map((c) => c.id);
      return change({ blockingCalendarIds: ids });
    }
    case 'calendar.receive':
      return change({ receivingCalendarId: event.calendarId });
    case 'setting.set':
      return change(event.setting);
  }
}

export const calendarConnectionsMachine = setup({
  types: {
    context: {} as CalendarConnectionsContext,
    events: {} as CalendarConnectionsEvent,
    input: {} as { coachId: string },
    tags: {} as 'busy' | 'loading' | 'error' | 'connecting' | 'confirmDisconnect' | 'watching',
  },
  actors: {
    loadConnections: fromPromise<CalendarConnection[], { coachId: string }>(
      notProvided('calendar connections', 'loadConnections'),
    ),
    createConnection: fromPromise<CalendarConnection, CreateConnectionInput>(
      notProvided('calendar connections', 'createConnection'),
    ),
    updateConnection: fromPromise<CalendarConnection, UpdateConnectionInput>(
      notProvided('calendar connections', 'updateConnection'),
    ),
    syncConnection: fromPromise<CalendarConnection, ConnectionInput>(
      notProvided('calendar connections', 'syncConnection'),
    ),
    deleteConnection: fromPromise<void, ConnectionInput>(
      notProvided('calendar connections', 'deleteConnection'),
    ),
  },
  guards: {
    draftComplete: ({ context }) => Object.keys(missingFields(context.draft)).length === 0,
    hasConnections: ({ context }) => context.connections.length > 0,
    known: ({ context, event }) =>
      'connectionId' in event && context.connections.some((c) => c.id === event.connectionId),
    watching: ({ context }) => Object.keys(context.watching).length > 0,
    workIdle: stateIn('#calendarConnections.ready.work.idle'),
  },
  actions: {
    // Only the choice events' transitions run it.
    beginSave: assign(({ context, event }) => ({
      error: null,
      change: choiceChange(context, event as ChoiceEvent),
    })),
  },
  delays: { pollDelay: POLL_MS },
}).createMachine({
  id: 'calendarConnections',
  context: ({ input }) => ({
    coachId: input.coachId,
    connections: [],
    formOpen: false,
    draft: EMPTY,
    fieldErrors: {},
    error: null,
    writeKey: null,
    change: null,
    target: null,
    watching: {},
    polls: 0,
    readAt: 0,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadConnections',
        src: 'loadConnections',
        input: ({ context }) => ({ coachId: context.coachId }),
        onDone: {
          target: 'ready',
          actions: assign({
            connections: ({ event }) => event.output,
            formOpen: ({ event }) => event.output.length === 0,
            error: null,
            readAt: () => Date.now(),
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
        },
      },
    },
    failed: { tags: ['error'], on: { 'list.retry': 'loading' } },
    ready: {
      type: 'parallel',
      on: {
        'form.change': {
          actions: assign(({ context, event }) => {
            const { [event.field]: _gone, ...fieldErrors } = context.fieldErrors;
            return { draft: { ...context.draft, [event.field]: event.value }, fieldErrors };
          }),
        },
      },
      states: {
        work: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'form.open': {
                  guard: ({ context }) => !context.formOpen,
                  actions: assign({ formOpen: true }),
                },
                'form.close': {
                  guard: and([({ context }) => context.formOpen, 'hasConnections']),
                  actions: assign({ formOpen: false, draft: EMPTY, fieldErrors: {} }),
                },
                'form.submit': [
                  {
                    guard: and([({ context }) => context.formOpen, 'draftComplete']),
                    target: 'connecting',
                    actions: assign({
                      fieldErrors: {},
                      error: null,
                      writeKey: ({ context }) => keyFor(context.writeKey, bodyOf(context.draft)),
                    }),
                  },
                  {
                    guard: ({ context }) => context.formOpen,
                    actions: assign({ fieldErrors: ({ context }) => missingFields(context.draft) }),
                  },
                ],
                'calendar.block': { guard: 'known', target: 'saving', actions: 'beginSave' },
                'calendar.receive': { guard: 'known', target: 'saving', actions: 'beginSave' },
                'setting.set': { guard: 'known', target: 'saving', actions: 'beginSave' },
                'connection.sync': {
                  guard: 'known',
                  target: 'syncing',
                  actions: assign({ error: null, target: ({ event }) => event.connectionId }),
                },
                'connection.disconnect': {
                  guard: 'known',
                  target: 'confirmingDisconnect',
                  actions: assign({ error: null, target: ({ event }) => event.connectionId }),
                },
              },
            },
            connecting: {
              tags: ['busy', 'connecting'],
              invoke: {
                id: 'createConnection',
                src: 'createConnection',
                input: ({ context }) => ({
                  coachId: context.coachId,
                  idempotencyKey: context.writeKey!.key,
                  body: bodyOf(context.draft),
                }),
                onDone: {
                  target: 'idle',
                  actions: assign({
                    connections: ({ context, event }) => [...context.connections, event.output],
                    formOpen: false,
                    draft: EMPTY,
                    fieldErrors: {},
                    writeKey: null,
                    readAt: () => Date.now(),
                  }),
                },
                onError: {
                  target: 'idle',
                  actions: assign(({ event }) => {
                    const fieldErrors = connectErrorsOf(event.error);
                    // A refusal about a field shows there; anything else (offline…) above the form.
                    return Object.keys(fieldErrors).length > 0
                      ? { fieldErrors, error: null }
                      : { fieldErrors: {}, error: machineErrorOf(event.error) };
                  }),
                },
              },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                id: 'updateConnection',
                src: 'updateConnection',
                input: ({ context }) => context.change!,
                onDone: {
                  target: 'idle',
                  actions: assign(({ context, event }) => ({
                    connections: replace(context.connections, event.output),
                    // The server queued a sync of the new choice.
                    watching: watch(context, event.output),
                    polls: 0,
                    change: null,
                    readAt: Date.now(),
                  })),
                },
                onError: {
                  target: 'idle',
                  actions: assign({
                    error: ({ event }) => machineErrorOf(event.error),
                    change: null,
                  }),
                },
              },
            },
            syncing: {
              tags: ['busy'],
              invoke: {
                id: 'syncConnection',
                src: 'syncConnection',
                input: ({ context }) => ({
                  coachId: context.coachId,
                  connectionId: context.target!,
                }),
                onDone: {
                  target: 'idle',
                  actions: assign(({ context, event }) => ({
                    connections: replace(context.connections, event.output),
                    watching: watch(context, event.output),
                    polls: 0,
                    target: null,
                    readAt: Date.now(),
                  })),
                },
                onError: {
                  target: 'idle',
                  actions: assign({
                    error: ({ event }) => machineErrorOf(event.error),
                    target: null,
                  }),
                },
              },
            },
            confirmingDisconnect: {
              tags: ['confirmDisconnect'],
              on: {
                'disconnect.confirm': 'disconnecting',
                'disconnect.abort': { target: 'idle', actions: assign({ target: null }) },
              },
            },
            disconnecting: {
              tags: ['busy'],
              invoke: {
                id: 'deleteConnection',
                src: 'deleteConnection',
                input: ({ context }) => ({
                  coachId: context.coachId,
                  connectionId: context.target!,
                }),
                onDone: {
                  target: 'idle',
                  actions: assign(({ context }) => {
                    const connections = context.connections.filter((c) => c.id !== context.target);
                    const { [context.target!]: _gone, ...watching } = context.watching;
                    return {
                      connections,
                      watching,
                      target: null,
                      formOpen: context.formOpen || connections.length === 0,
                    };
                  }),
                },
                onError: {
                  target: 'idle',
                  actions: assign({
                    error: ({ event }) => machineErrorOf(event.error),
                    target: null,
                  }),
                },
              },
            },
          },
        },
        watch: {
          initial: 'resting',
          states: {
            resting: { always: { guard: 'watching', target: 'waiting' } },
            waiting: {
              tags: ['watching'],
              always: { guard: not('watching'), target: 'resting' },
              // While a change is on its way the reload waits another round (it would cross it).
              after: {
                pollDelay: [
                  { guard: 'workIdle', target: 'refreshing' },
                  { target: 'waiting', reenter: true },
                ],
              },
            },
            refreshing: {
              tags: ['watching'],
              invoke: {
                id: 'refreshConnections',
                src: 'loadConnections',
                input: ({ context }) => ({ coachId: context.coachId }),
                onDone: {
                  target: 'resting',
                  actions: assign(({ context, event }) => {
                    const fresh = new Map(event.output.map((c) => [c.id, c]));
                    const connections = context.connections.map((shown) => {
                      const next = fresh.get(shown.id);
                      if (!next) return shown;
                      const merged = { ...shown };
                      for (const key of SYNC_FIELDS) Object.assign(merged, { [key]: next[key] });
                      return merged;
                    });
                    const polls = context.polls + 1;
                    const watching: Record<string, string | null> = {};
                    if (polls < MAX_POLLS) {
                      for (const [id, before] of Object.entries(context.watching)) {
                        const next = fresh.get(id);
                        // Still waiting while the server has not tried this connection since.
                        if (next && next.lastAttemptAt === before) watching[id] = before;
                      }
                    }
                    return { connections, watching, polls, readAt: Date.now() };
                  }),
                },
                // A failed reload changes nothing shown; the next change or click tries again.
                onError: { target: 'resting', actions: assign({ watching: {}, polls: 0 }) },
              },
            },
          },
        },
      },
    },
  },
});
