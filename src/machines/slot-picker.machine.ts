import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { notProvided as notProvidedBy } from './shared/failures';

/**
 * The one "load free slots → choose → confirm → submit" flow that the booking pages invoke as
 * a child: it loads the slots (`loadSlots`), moves by day or by week, keeps the
 * chosen slot with its own Idempotency-Key, and submits it with the parent's `submit` actor.
 * A slot taken meanwhile (a `conflictCodes` answer) loads fresh slots and keeps the reason for
 * the page; a failed load or a failed submit waits for a retry. The picker ends (final state,
 * its output) when the slot is booked or when an answer ends the flow (`endCodes`: the parent
 * shows that outcome). No Temporal here: the client pages' bundle carries none.
 */

export type FreeSlot = components['schemas']['FreeSlot'];

/** A failure the pages translate by `code`. */
export interface PickerError {
  code: string;
}

/** What the slot call needs besides its window (coach, duration, appointment id, …). */
export type SlotQuery = Record<string, unknown>;
/** The time window the slots are asked for. */
export interface SlotWindow {
  startDate: string;
  endDate: string;
}

export interface SubmitRequest {
  query: SlotQuery;
  slot: FreeSlot;
  idempotencyKey: string;
}

export interface SlotPickerInput {
  /** Null until the parent knows it (a manager has not picked the coach yet). */
  query: SlotQuery | null;
  /** The window of a load: the shown week (`YYYY-MM-DD`, a Monday) or from now on. */
  window: (weekStart: string | null) => SlotWindow;
  /** The week shown; null for pages that show the next weeks by day. */
  weekStart?: string | null;
  /** The earliest week one can go back to (null: any). */
  firstWeek?: string | null;
  /** Slots the parent loaded already (the picker starts with them). */
  slots?: FreeSlot[];
  /** Submit answers that mean "taken meanwhile": fresh slots, with the reason. */
  conflictCodes?: readonly string[];
  /** Load or submit answers that end the picking (the parent shows the outcome). */
  endCodes?: readonly string[];
  /** The submit actor's input for the chosen slot (default: the choice itself). */
  request?: (choice: SubmitRequest) => unknown;
  /** Reads `{ code }` from a failure (the pages' error codes differ). */
  errorOf: (error: unknown) => PickerError;
}

export type SlotPickerOutput =
  { outcome: 'submitted'; slot: FreeSlot; result: unknown } | { outcome: 'ended'; code: string };

const outputOf = (event: unknown) => (event as { output: SlotPickerOutput }).output;
/** For the parent's `onDone`: the slot was booked (or moved to). */
export const pickedSlot = ({ event }: { event: unknown }) =>
  outputOf(event).outcome === 'submitted';
/** For the parent's `onDone`: the picking ended with one of these codes. */
export const pickingEndedWith =
  (codes: readonly string[]) =>
  ({ event }: { event: unknown }) => {
    const output = outputOf(event);
    return output.outcome === 'ended' && codes.includes(output.code);
  };
/** The answer of the submit (the booked or moved appointment). */
export const submittedResult = <T>({ event }: { event: unknown }): T =>
  (outputOf(event) as Extract<SlotPickerOutput, { outcome: 'submitted' }>).result as T;

export interface SlotPickerContext {
  query: SlotQuery | null;
  window: (weekStart: string | null) => SlotWindow;
  weekStart: string | null;
  firstWeek: string | null;
  conflictCodes: readonly string[];
  endCodes: readonly string[];
  errorOf: (error: unknown) => PickerError;
  request: (choice: SubmitRequest) => unknown;
  slots: FreeSlot[];
  /** The slots came with the input: the first look needs no load. */
  preloaded: boolean;
  /** The Berlin day shown (pages that move by day). */
  day: string | null;
  slot: FreeSlot | null;
  /** Why the slots were loaded afresh (`slot_taken`, …), until the next choice or move. */
  conflict: string | null;
  idempotencyKey: string | null;
  result: unknown;
  ended: string | null;
  error: PickerError | null;
}

export type SlotPickerEvent =
  | { type: 'query.change'; query: SlotQuery | null }
  | { type: 'day.select'; day: string }
  | { type: 'week.previous' }
  | { type: 'week.next' }
  | { type: 'slot.select'; slot: FreeSlot }
  | { type: 'booking.confirm' }
  | { type: 'booking.back' }
  | { type: 'retry' };

const notProvided = (actor: string) => notProvidedBy('slot-picker', actor);

const berlinDayKey = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** The Berlin date of an instant, `YYYY-MM-DD`. */
export const slotDay = (iso: string): string => berlinDayKey.format(new Date(iso));

/** `YYYY-MM-DD` plus whole days (calendar dates, no zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** The chosen day when it still has slots, else the first day with any. */
function dayOf(day: string | null, slots: readonly FreeSlot[]): string | null {
  if (day && slots.some((s) => slotDay(s.startDate) === day)) return day;
  return slots[0] ? slotDay(slots[0].startDate) : null;
}

const errorOf = (context: SlotPickerContext, event: unknown) =>
  context.errorOf((event as { error?: unknown }).error);

export const slotPickerMachine = setup({
  types: {
    context: {} as SlotPickerContext,
    events: {} as SlotPickerEvent,
    input: {} as SlotPickerInput,
    output: {} as SlotPickerOutput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'picking'
      | 'needQuery'
      | 'loading'
      | 'loadError'
      | 'slotsReady'
      | 'confirm'
      | 'submitting',
  },
  actors: {
    /** The free slots for the query and window. */
    loadSlots: fromPromise<FreeSlot[], SlotQuery & SlotWindow>(notProvided('loadSlots')),
    /** Books (or moves to) the chosen slot; its answer is the picker's result. */
    // Each page's own booking call (its request and answer types), so typed by the page.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    submit: fromPromise<any, any>(notProvided('submit')),
  },
  guards: {
    hasQuery: ({ context }) => context.query !== null,
    preloaded: ({ context }) => context.preloaded,
    byWeek: ({ context }) => context.weekStart !== null,
    canGoBack: ({ context }) =>
      context.weekStart !== null &&
      (context.firstWeek === null || context.weekStart > context.firstWeek),
    conflict: ({ context, event }) => context.conflictCodes.includes(errorOf(context, event).code),
    ends: ({ context, event }) => context.endCodes.includes(errorOf(context, event).code),
  },
}).createMachine({
  id: 'slotPicker',
  context: ({ input }) => ({
    query: input.query,
    window: input.window,
    weekStart: input.weekStart ?? null,
    firstWeek: input.firstWeek ?? null,
    conflictCodes: input.conflictCodes ?? ['slot_taken'],
    endCodes: input.endCodes ?? [],
    errorOf: input.errorOf,
    request: input.request ?? ((choice) => choice),
    slots: input.slots ?? [],
    preloaded: input.slots !== undefined,
    day: dayOf(null, input.slots ?? []),
    slot: null,
    conflict: null,
    idempotencyKey: null,
    result: null,
    ended: null,
    error: null,
  }),
  initial: 'picking',
  output: ({ context }): SlotPickerOutput =>
    context.ended !== null
      ? { outcome: 'ended', code: context.ended }
      : { outcome: 'submitted', slot: context.slot!, result: context.result },
  states: {
    picking: {
      tags: ['picking'],
      initial: 'checking',
      on: {
        'query.change': {
          target: '.checking',
          reenter: true,
          actions: assign({ query: ({ event }) => event.query, slot: null, conflict: null }),
        },
        'week.next': {
          guard: 'byWeek',
          target: '.checking',
          reenter: true,
          actions: assign({
            weekStart: ({ context }) => addDays(context.weekStart!, 7),
            conflict: null,
          }),
        },
        'week.previous': {
          guard: 'canGoBack',
          target: '.checking',
          reenter: true,
          actions: assign({
            weekStart: ({ context }) => addDays(context.weekStart!, -7),
            conflict: null,
          }),
        },
      },
      states: {
        checking: {
          always: [
            { guard: 'preloaded', target: 'choosing', actions: assign({ preloaded: false }) },
            { guard: 'hasQuery', target: 'loading' },
            { target: 'waiting' },
          ],
        },
        /** Nothing to load yet: the parent has to say what (the coach). */
        waiting: { tags: ['needQuery'] },
        loading: {
          tags: ['busy', 'loading'],
          invoke: {
            id: 'loadSlots',
            src: 'loadSlots',
            input: ({ context }) => ({ ...context.query!, ...context.window(context.weekStart) }),
            onDone: {
              target: 'choosing',
              actions: assign({
                slots: ({ event }) => event.output,
                day: ({ context, event }) => dayOf(context.day, event.output),
                error: null,
              }),
            },
            onError: [
              {
                guard: 'ends',
                target: '#slotPicker.ended',
                actions: assign({ ended: ({ context, event }) => errorOf(context, event).code }),
              },
              {
                target: 'loadFailed',
                actions: assign({ error: ({ context, event }) => errorOf(context, event) }),
              },
            ],
          },
        },
        loadFailed: { tags: ['error', 'loadError'], on: { retry: 'loading' } },
        choosing: {
          tags: ['slotsReady'],
          on: {
            retry: 'loading',
            'day.select': { actions: assign({ day: ({ event }) => event.day }) },
            'slot.select': {
              target: '#slotPicker.confirming',
              actions: assign({
                slot: ({ event }) => event.slot,
                conflict: null,
                error: null,
                // One key per chosen slot: a retry after a lost answer cannot book twice.
                idempotencyKey: () => crypto.randomUUID(),
              }),
            },
          },
        },
      },
    },
    confirming: {
      tags: ['confirm'],
      on: {
        'booking.confirm': { target: 'submitting', actions: assign({ error: null }) },
        'booking.back': {
          target: 'picking.choosing',
          actions: assign({ slot: null, error: null }),
        },
      },
    },
    submitting: {
      tags: ['busy', 'confirm', 'submitting'],
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }: { context: SlotPickerContext }) =>
          context.request({
            query: context.query!,
            slot: context.slot!,
            idempotencyKey: context.idempotencyKey!,
          }),
        onDone: {
          target: 'submitted',
          actions: assign({ result: ({ event }) => event.output, error: null }),
        },
        onError: [
          {
            guard: 'conflict',
            target: 'picking.loading',
            actions: assign({
              conflict: ({ context, event }) => errorOf(context, event).code,
              slot: null,
              error: null,
            }),
          },
          {
            guard: 'ends',
            target: 'ended',
            actions: assign({ ended: ({ context, event }) => errorOf(context, event).code }),
          },
          {
            target: 'confirming',
            actions: assign({ error: ({ context, event }) => errorOf(context, event) }),
          },
        ],
      },
    },
    submitted: { type: 'final' },
    ended: { type: 'final' },
  },
});
