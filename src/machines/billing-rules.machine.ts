import { type ActorRefFrom, assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { actionStates } from './confirm-action.machine';
import { type MachineError, machineErrorOf, notProvided } from './shared/failures';

/**
 * `/billing/rules` (ADMIN): the ordered billing rules, reordered optimistically, deleted after a
 * question, and a preview of which rule would bill one appointment. Creating and editing are the
 * record form on their own pages (`/billing/rules/new`, `/billing/rules/{id}/edit`).
 *
 * Two regions side by side:
 * - `list`: load; `rules.move` shows the new order at once and sends every id in it; a 409
 *   `stale_rule_order` (someone else changed the rules meanwhile) puts the old order back,
 *   reloads and says so; another failure puts the old order back and says the move failed.
 *   Delete asks first (`confirm-action`'s ask/run pieces) and reloads after.
 * - `preview`: an appointment id in, the rules up to the match with what failed above it.
 * - `pick`: a client chosen by name (the record picker) loads that client's appointments, newest
 *   first; choosing one of them is a `preview.request` for its id.
 *
 * `announcement` is what the page's aria-live region reads after a move (or its rollback).
 */
type BillingRule = components['schemas']['BillingRule'];
type Preview = components['schemas']['BillingRulePreview'];
type Appointment = components['schemas']['Appointment'];

/** The client whose appointments the preview offers (id and the name the picker showed). */
export interface PickedClient {
  id: string;
  label: string;
}

export type RulesAnnouncement =
  | { kind: 'moved'; name: string; position: number; count: number }
  | { kind: 'stale' }
  | { kind: 'moveFailed'; name: string }
  | { kind: 'deleted'; name: string };

/** What the page starts with: an appointment named in the address (`?appointmentId=`). */
export interface BillingRulesInput {
  appointmentId?: string;
}

export interface BillingRulesContext {
  rules: BillingRule[];
  /** The order before an unconfirmed move, put back when the server refuses it. */
  before: BillingRule[] | null;
  /** The rule moved last (the view keeps focus on it). */
  movedId: string | null;
  announcement: RulesAnnouncement | null;
  error: MachineError | null;
  /** The rule whose deletion is asked or running. */
  deleting: BillingRule | null;
  deleteError: MachineError | null;
  appointmentId: string;
  /** The page was opened for an appointment named in the address: the id field starts open. */
  openedForAppointment: boolean;
  preview: Preview | null;
  previewError: MachineError | null;
  client: PickedClient | null;
  /** The chosen client's appointments, newest first. */
  appointments: Appointment[];
  appointmentsError: MachineError | null;
}

export type BillingRulesEvent =
  | { type: 'rules.retry' }
  /** Move a rule to index `to` (0-based) of the list: drag and drop or the up/down buttons. */
  | { type: 'rules.move'; id: string; to: number }
  | { type: 'rule.delete'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.abort' }
  | { type: 'delete.retry' }
  | { type: 'preview.request'; appointmentId: string }
  | { type: 'preview.clear' }
  | { type: 'client.choose'; client: PickedClient }
  | { type: 'client.clear' }
  | { type: 'appointments.retry' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The list with rule `id` moved to index `to`, or null when that changes nothing. */
export function movedRules(
  rules: readonly BillingRule[],
  id: string,
  to: number,
): BillingRule[] | null {
  const from = rules.findIndex((r) => r.id === id);
  if (from < 0 || to < 0 || to >= rules.length || to === from) return null;
  const next = [...rules];
  const [rule] = next.splice(from, 1);
  next.splice(to, 0, rule!);
  return next.map((r, position) => ({ ...r, position }));
}

const statusOf = (error: unknown) => (error as { status?: unknown } | undefined)?.status;
const codeOf = (error: unknown) => (error as { code?: unknown } | undefined)?.code;

const del = actionStates<BillingRulesContext, BillingRulesEvent>();

export const billingRulesMachine = setup({
  types: {
    context: {} as BillingRulesContext,
    events: {} as BillingRulesEvent,
    input: {} as BillingRulesInput | undefined,
    tags: {} as
      | 'loading'
      | 'busy'
      | 'loadError'
      | 'saving'
      | 'reloading'
      | 'asking'
      | 'deleting'
      | 'deleteError'
      | 'previewing'
      | 'previewShown'
      | 'previewError'
      | 'appointmentsLoading'
      | 'appointmentsShown'
      | 'appointmentsError',
  },
  actors: {
    loadRules: fromPromise<BillingRule[], void>(notProvided('billing rules', 'loadRules')),
    reorderRules: fromPromise<BillingRule[], { ids: string[] }>(
      notProvided('billing rules', 'reorderRules'),
    ),
    deleteRule: fromPromise<unknown, { id: string }>(notProvided('billing rules', 'deleteRule')),
    previewRules: fromPromise<Preview, { appointmentId: string }>(
      notProvided('billing rules', 'previewRules'),
    ),
    loadClientAppointments: fromPromise<Appointment[], { clientId: string }>(
      notProvided('billing rules', 'loadClientAppointments'),
    ),
  },
  actions: {
    /** A toast after a deletion (the page's). */
    notifyDeleted: (_, _params: { name: string }) => undefined,
  },
  guards: {
    movable: ({ context, event }) =>
      event.type === 'rules.move' && movedRules(context.rules, event.id, event.to) !== null,
    staleOrder: ({ event }) =>
      'error' in event &&
      statusOf(event.error) === 409 &&
      codeOf(event.error) === 'stale_rule_order',
    knownRule: ({ context, event }) =>
      event.type === 'rule.delete' && context.rules.some((r) => r.id === event.id),
    validAppointmentId: ({ event }) =>
      event.type === 'preview.request' && UUID.test(event.appointmentId.trim()),
  },
}).createMachine({
  id: 'billingRules',
  type: 'parallel',
  context: ({ input }) => ({
    rules: [],
    before: null,
    movedId: null,
    announcement: null,
    error: null,
    deleting: null,
    deleteError: null,
    appointmentId: input?.appointmentId ?? '',
    openedForAppointment: (input?.appointmentId?.trim() ?? '') !== '',
    preview: null,
    previewError: null,
    client: null,
    appointments: [],
    appointmentsError: null,
  }),
  // An appointment the page was opened for is previewed at once (as if typed in).
  entry: enqueueActions(({ context, enqueue }) => {
    if (context.appointmentId)
      enqueue.raise({ type: 'preview.request', appointmentId: context.appointmentId });
  }),
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading', 'busy'],
          invoke: {
            id: 'loadRules',
            src: 'loadRules',
            onDone: {
              target: 'ready',
              actions: assign({ rules: ({ event }) => event.output, error: null }),
            },
            onError: {
              target: 'loadFailed',
              actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
            },
          },
        },
        loadFailed: { tags: ['loadError'], on: { 'rules.retry': 'loading' } },
        ready: {
          on: {
            'rules.move': {
              guard: 'movable',
              target: 'saving',
              actions: assign(({ context, event }) => {
                const rules = movedRules(context.rules, event.id, event.to)!;
                const rule = rules[event.to]!;
                return {
                  before: context.rules,
                  rules,
                  movedId: event.id,
                  announcement: {
                    kind: 'moved',
                    name: rule.name,
                    position: event.to + 1,
                    count: rules.length,
                  } as const,
                };
              }),
            },
            'rule.delete': {
              guard: 'knownRule',
              target: 'asking',
              actions: assign(({ context, event }) => ({
                deleting: context.rules.find((r) => r.id === event.id)!,
                deleteError: null,
              })),
            },
          },
        },
        /** The new order is shown; the server has not confirmed it yet. */
        saving: {
          tags: ['busy', 'saving'],
          invoke: {
            id: 'reorderRules',
            src: 'reorderRules',
            input: ({ context }) => ({ ids: context.rules.map((r) => r.id) }),
            onDone: {
              target: 'ready',
              actions: assign({ rules: ({ event }) => event.output, before: null }),
            },
            onError: [
              {
                guard: 'staleOrder',
                target: 'reloading',
                actions: assign(({ context }) => ({
                  rules: context.before ?? context.rules,
                  before: null,
                  announcement: { kind: 'stale' } as const,
                })),
              },
              {
                target: 'ready',
                actions: assign(({ context, event }) => ({
                  rules: context.before ?? context.rules,
                  before: null,
                  error: machineErrorOf(event.error),
                  announcement: {
                    kind: 'moveFailed',
                    name: context.rules.find((r) => r.id === context.movedId)?.name ?? '',
                  } as const,
                })),
              },
            ],
          },
        },
        /** After a refused move: the rules as they are now. */
        reloading: {
          tags: ['busy', 'reloading'],
          invoke: {
            id: 'reloadRules',
            src: 'loadRules',
            onDone: { target: 'ready', actions: assign({ rules: ({ event }) => event.output }) },
            onError: {
              target: 'loadFailed',
              actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
            },
          },
        },
        asking: del.asking({
          tags: ['asking'],
          confirm: 'delete.confirm',
          abort: 'delete.abort',
          run: 'deleting',
          back: 'ready',
          onAbort: assign<
            BillingRulesContext,
            BillingRulesEvent,
            undefined,
            BillingRulesEvent,
            never
          >({
            deleting: null,
          }),
        }),
        // confirm-action's "run" step, written out: its onDone here also reloads the list.
        deleting: {
          tags: ['busy', 'deleting', 'asking'],
          invoke: {
            id: 'deleteRule',
            src: 'deleteRule',
            input: ({ context }) => ({ id: context.deleting!.id }),
            onDone: {
              target: 'loading',
              actions: [
                {
                  type: 'notifyDeleted',
                  params: ({ context }) => ({ name: context.deleting?.name ?? '' }),
                },
                assign(({ context }) => ({
                  announcement: { kind: 'deleted', name: context.deleting?.name ?? '' } as const,
                  deleting: null,
                })),
              ],
            },
            onError: {
              target: 'deleteFailed',
              actions: assign({ deleteError: ({ event }) => machineErrorOf(event.error) }),
            },
          },
        },
        deleteFailed: {
          tags: ['deleteError', 'asking'],
          on: {
            'delete.retry': { target: 'deleting', actions: assign({ deleteError: null }) },
            'delete.abort': {
              target: 'ready',
              actions: assign({ deleting: null, deleteError: null }),
            },
          },
        },
      },
    },
    preview: {
      initial: 'idle',
      on: {
        'preview.request': [
          {
            guard: 'validAppointmentId',
            target: '.previewing',
            actions: assign({
              appointmentId: ({ event }) => event.appointmentId.trim(),
              previewError: null,
            }),
          },
          {
            target: '.failed',
            actions: assign({
              appointmentId: ({ event }) => event.appointmentId.trim(),
              preview: null,
              previewError: { code: 'invalid_appointment_id' },
            }),
          },
        ],
      },
      states: {
        idle: {},
        previewing: {
          tags: ['previewing'],
          invoke: {
            id: 'previewRules',
            src: 'previewRules',
            input: ({ context }) => ({ appointmentId: context.appointmentId }),
            onDone: { target: 'shown', actions: assign({ preview: ({ event }) => event.output }) },
            onError: {
              target: 'failed',
              actions: assign({
                preview: null,
                previewError: ({ event }) => machineErrorOf(event.error),
              }),
            },
          },
        },
        shown: {
          tags: ['previewShown'],
          on: { 'preview.clear': { target: 'idle', actions: assign({ preview: null }) } },
        },
        failed: {
          tags: ['previewError'],
          on: { 'preview.clear': { target: 'idle', actions: assign({ previewError: null }) } },
        },
      },
    },
    pick: {
      initial: 'none',
      on: {
        // Another client (or the same one again) loads its appointments anew. (No `reenter`: that
        // would restart the whole page, the list region too.)
        'client.choose': {
          target: '.loading',
          actions: assign({
            client: ({ event }) => event.client,
            appointments: [],
            appointmentsError: null,
          }),
        },
        'client.clear': {
          target: '.none',
          actions: assign({ client: null, appointments: [], appointmentsError: null }),
        },
      },
      states: {
        none: {},
        loading: {
          tags: ['appointmentsLoading'],
          invoke: {
            id: 'loadClientAppointments',
            src: 'loadClientAppointments',
            input: ({ context }) => ({ clientId: context.client!.id }),
            onDone: {
              target: 'ready',
              actions: assign({ appointments: ({ event }) => event.output }),
            },
            onError: {
              target: 'failed',
              actions: assign({ appointmentsError: ({ event }) => machineErrorOf(event.error) }),
            },
          },
        },
        ready: { tags: ['appointmentsShown'] },
        failed: {
          tags: ['appointmentsError'],
          on: {
            'appointments.retry': {
              target: 'loading',
              actions: assign({ appointmentsError: null }),
            },
          },
        },
      },
    },
  },
});

/** The page's actor, as the rule rows and the preview receive it. */
export type RulesActor = ActorRefFrom<typeof billingRulesMachine>;
