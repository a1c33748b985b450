import type { Temporal } from '@js-temporal/polyfill';
import { assign, fromPromise, setup } from 'xstate';
import {
  fieldErrorsOf,
  coachGuards,
  startingState,
  toScheduleError,
  type Availability,
  type CoachOption,
  type ScheduleError,
} from './scheduling/shared';
import { WEEKDAYS, type Weekday } from '../../shared/recurrence';
import { mondayOf, windowOf } from '../../shared/time';
import { notProvided as notProvidedBy } from './shared/failures';
import { keyFor, type WriteKey } from './shared/write-key';
import {
  changeDraft,
  newDraft,
  occurrenceDraft,
  saveInput,
  seriesDraft,
  SERVER_FIELDS,
  toggleDraftDay,
  validateDraft,
  type AvailabilityDraft,
  type ChangedField,
  type DraftErrors,
  type SaveAvailabilityInput,
} from './availability-week/draft-form';

export type * from './availability-week/draft-form';
export { saveInput, validateDraft } from './availability-week/draft-form';

/**
 * `/availability`: one coach's week of recurring blocks and exceptions. Coaches see their own;
 * admins and onboarding managers pick the coach. A block of the week can be created, and an
 * occurrence selected to edit or delete the whole series or only that occurrence.
 *
 * starting → (loadingCoaches →) loading → ready.idle ⇄ ready.selected → ready.editing →
 * ready.saving → loading; ready.selected → ready.confirmingDelete → ready.deleting → loading.
 */

export type DeleteAvailabilityInput =
  { op: 'series'; id: string } | { op: 'occurrence'; id: string; occurrenceDate: string };

export interface LoadWeekInput {
  coachId: string;
  startDate: string;
  endDate: string;
}

export interface Selection {
  availabilityId: string;
  occurrenceDate: string;
}

export interface AvailabilityWeekContext {
  canPickCoach: boolean;
  coaches: CoachOption[];
  coachId: string | null;
  weekStart: Temporal.PlainDate;
  availabilities: Availability[];
  selection: Selection | null;
  draft: AvailabilityDraft | null;
  fieldErrors: DraftErrors;
  deleteScope: 'series' | 'occurrence' | null;
  error: ScheduleError | null;
  /** A new availability's Idempotency-Key, kept while the same one is saved again. */
  writeKey: WriteKey | null;
}

export interface AvailabilityWeekInput {
  /** Works for every coach (the session's `pickCoach` permission): picks the coach. */
  canPickCoach: boolean;
  /** The signed-in coach's record (session.coach.id); null for other roles. */
  ownCoachId: string | null;
  /** Today in Berlin: the week shown first. */
  today: Temporal.PlainDate;
}

export type AvailabilityWeekEvent =
  | { type: 'week.previous' }
  | { type: 'week.next' }
  | { type: 'week.today'; today: Temporal.PlainDate }
  | { type: 'coach.select'; coachId: string }
  | { type: 'block.create'; date: string; startTime?: string; endTime?: string }
  | { type: 'occurrence.select'; availabilityId: string; occurrenceDate: string }
  | { type: 'selection.clear' }
  | { type: 'edit.series' }
  | { type: 'edit.occurrence' }
  | { type: 'delete.series' }
  | { type: 'delete.occurrence' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'form.change'; field: ChangedField; value: string }
  | { type: 'form.toggleDay'; day: Weekday }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'retry' };

/** The occurrence a selection points to, with its series. */
export function selectedOccurrence(
  context: Pick<AvailabilityWeekContext, 'availabilities' | 'selection'>,
) {
  const { selection } = context;
  if (!selection) return undefined;
  const availability = context.availabilities.find((a) => a.id === selection.availabilityId);
  const occurrence = availability?.occurrences.find(
    (o) => o.occurrenceDate === selection.occurrenceDate,
  );
  return availability && occurrence ? { availability, occurrence } : undefined;
}

const notProvided = (actor: string) => notProvidedBy('availability-week', actor);

const weekNavigation = {
  'week.previous': { target: '#availabilityWeek.loading', actions: 'previousWeek' },
  'week.next': { target: '#availabilityWeek.loading', actions: 'nextWeek' },
  'week.today': { target: '#availabilityWeek.loading', actions: 'thisWeek' },
  'coach.select': {
    guard: 'canPickCoach',
    target: '#availabilityWeek.loading',
    actions: 'pickCoach',
  },
} as const;

export const availabilityWeekMachine = setup({
  types: {
    context: {} as AvailabilityWeekContext,
    events: {} as AvailabilityWeekEvent,
    input: {} as AvailabilityWeekInput,
    tags: {} as
      | 'busy'
      | 'error'
      | 'coachesError'
      | 'confirmDelete'
      | 'deleting'
      | 'editing'
      | 'loadingCoaches'
      | 'loadingWeek'
      | 'noCoach'
      | 'saving'
      | 'selectable'
      | 'selection'
      | 'weekError',
  },
  actors: {
    loadCoaches: fromPromise<CoachOption[]>(notProvided('loadCoaches')),
    loadWeek: fromPromise<Availability[], LoadWeekInput>(notProvided('loadWeek')),
    saveAvailability: fromPromise<Availability, SaveAvailabilityInput>(
      notProvided('saveAvailability'),
    ),
    deleteAvailability: fromPromise<void, DeleteAvailabilityInput>(
      notProvided('deleteAvailability'),
    ),
  },
  actions: {
    /** Tells the person the change was saved (the page shows a toast). */
    notifySaved: () => undefined,
    /** Tells the person the block was deleted. */
    notifyDeleted: () => undefined,
    previousWeek: assign({ weekStart: ({ context }) => context.weekStart.subtract({ days: 7 }) }),
    nextWeek: assign({ weekStart: ({ context }) => context.weekStart.add({ days: 7 }) }),
    thisWeek: assign({
      weekStart: ({ context, event }) =>
        event.type === 'week.today' ? mondayOf(event.today) : context.weekStart,
    }),
    pickCoach: assign({
      coachId: ({ context, event }) =>
        event.type === 'coach.select' ? event.coachId : context.coachId,
      selection: null,
    }),
  },
  guards: {
    ...coachGuards,
    noCoaches: ({ event }) =>
      'output' in event && Array.isArray(event.output) && event.output.length === 0,
    draftIsValid: ({ context }) =>
      context.draft !== null && Object.keys(validateDraft(context.draft)).length === 0,
    hasFieldErrors: ({ event }) =>
      'error' in event && Object.keys(fieldErrorsOf(event.error, SERVER_FIELDS)).length > 0,
    selectionExists: ({ context, event }) =>
      event.type === 'occurrence.select' &&
      selectedOccurrence({ availabilities: context.availabilities, selection: event }) !==
        undefined,
    isRecurring: ({ context }) => {
      const found = selectedOccurrence(context);
      return found !== undefined && found.availability.recurrence !== null;
    },
  },
}).createMachine({
  id: 'availabilityWeek',
  context: ({ input }) => ({
    canPickCoach: input.canPickCoach,
    coaches: [],
    coachId: input.canPickCoach ? null : input.ownCoachId,
    weekStart: mondayOf(input.today),
    availabilities: [],
    selection: null,
    draft: null,
    fieldErrors: {},
    deleteScope: null,
    error: null,
    writeKey: null,
  }),
  initial: 'starting',
  states: {
    starting: startingState('loading'),
    loadingCoaches: {
      tags: ['busy', 'loadingCoaches'],
      invoke: {
        id: 'loadCoaches',
        src: 'loadCoaches',
        onDone: [
          { guard: 'noCoaches', target: 'noCoach', actions: assign({ coaches: [] }) },
          {
            target: 'loading',
            actions: assign({
              coaches: ({ event }) => event.output,
              coachId: ({ context, event }) => context.coachId ?? event.output[0]?.id ?? null,
            }),
          },
        ],
        onError: {
          target: 'coachesFailed',
          actions: assign({ error: ({ event }) => toScheduleError(event.error) }),
        },
      },
    },
    coachesFailed: {
      tags: ['error', 'coachesError'],
      on: { retry: 'loadingCoaches' },
    },
    /** A coach account without a coach record, or no coaches at all for an admin. */
    noCoach: { tags: ['noCoach'] },
    loading: {
      tags: ['busy', 'loadingWeek'],
      entry: assign({ error: null }),
      invoke: {
        id: 'loadWeek',
        src: 'loadWeek',
        input: ({ context }) => ({ coachId: context.coachId!, ...windowOf(context.weekStart, 7) }),
        onDone: {
          target: 'ready',
          actions: assign({
            availabilities: ({ event }) => event.output,
            // A selection whose occurrence is gone (deleted, moved to another week) is dropped.
            selection: ({ context, event }) =>
              selectedOccurrence({ availabilities: event.output, selection: context.selection })
                ? context.selection
                : null,
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toScheduleError(event.error) }),
        },
      },
    },
    failed: {
      tags: ['error', 'weekError'],
      on: { retry: 'loading', ...weekNavigation },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          tags: ['selectable'],
          always: { guard: ({ context }) => context.selection !== null, target: 'selected' },
          on: {
            ...weekNavigation,
            'block.create': {
              target: 'editing',
              actions: assign({
                draft: ({ event }) => newDraft(event.date, event.startTime, event.endTime),
                fieldErrors: {},
                error: null,
              }),
            },
            'occurrence.select': {
              guard: 'selectionExists',
              target: 'selected',
              actions: assign({
                selection: ({ event }) => ({
                  availabilityId: event.availabilityId,
                  occurrenceDate: event.occurrenceDate,
                }),
              }),
            },
          },
        },
        selected: {
          tags: ['selectable', 'selection'],
          on: {
            ...weekNavigation,
            'occurrence.select': {
              guard: 'selectionExists',
              actions: assign({
                selection: ({ event }) => ({
                  availabilityId: event.availabilityId,
                  occurrenceDate: event.occurrenceDate,
                }),
                error: null,
              }),
            },
            'selection.clear': {
              target: 'idle',
              actions: assign({ selection: null, error: null }),
            },
            'block.create': {
              target: 'editing',
              actions: assign({
                selection: null,
                draft: ({ event }) => newDraft(event.date, event.startTime, event.endTime),
                fieldErrors: {},
                error: null,
              }),
            },
            'edit.series': {
              target: 'editing',
              actions: assign({
                draft: ({ context }) => seriesDraft(selectedOccurrence(context)!.availability),
                fieldErrors: {},
                error: null,
              }),
            },
            'edit.occurrence': {
              guard: 'isRecurring',
              target: 'editing',
              actions: assign({
                draft: ({ context }) => {
                  const { availability, occurrence } = selectedOccurrence(context)!;
                  return occurrenceDraft(
                    availability,
                    occurrence.occurrenceDate,
                    occurrence.startDate,
                    occurrence.endDate,
                  );
                },
                fieldErrors: {},
                error: null,
              }),
            },
            'delete.series': {
              target: 'confirmingDelete',
              actions: assign({ deleteScope: 'series', error: null }),
            },
            'delete.occurrence': {
              guard: 'isRecurring',
              target: 'confirmingDelete',
              actions: assign({ deleteScope: 'occurrence', error: null }),
            },
          },
        },
        editing: {
          tags: ['editing'],
          on: {
            'form.change': {
              actions: assign(({ context, event }) =>
                changeDraft(context.draft!, context.fieldErrors, event.field, event.value),
              ),
            },
            'form.toggleDay': {
              actions: assign(({ context, event }) =>
                toggleDraftDay(context.draft!, context.fieldErrors, event.day),
              ),
            },
            'form.submit': [
              {
                guard: 'draftIsValid',
                target: 'saving',
                actions: assign({
                  writeKey: ({ context }) =>
                    keyFor(context.writeKey, { draft: context.draft, coachId: context.coachId }),
                }),
              },
              { actions: assign({ fieldErrors: ({ context }) => validateDraft(context.draft!) }) },
            ],
            'form.cancel': [
              {
                guard: ({ context }) => context.selection !== null,
                target: 'selected',
                actions: assign({ draft: null, fieldErrors: {}, error: null }),
              },
              { target: 'idle', actions: assign({ draft: null, fieldErrors: {}, error: null }) },
            ],
          },
        },
        saving: {
          tags: ['busy', 'editing', 'saving'],
          entry: assign({ error: null }),
          invoke: {
            id: 'saveAvailability',
            src: 'saveAvailability',
            input: ({ context }) =>
              saveInput(context.draft!, context.coachId!, context.writeKey!.key),
            onDone: {
              target: '#availabilityWeek.loading',
              actions: [
                assign({ draft: null, fieldErrors: {}, selection: null, writeKey: null }),
                'notifySaved',
              ],
            },
            onError: [
              {
                guard: 'hasFieldErrors',
                target: 'editing',
                actions: assign({
                  fieldErrors: ({ event }) => fieldErrorsOf(event.error, SERVER_FIELDS),
                }),
              },
              {
                target: 'editing',
                actions: assign({ error: ({ event }) => toScheduleError(event.error) }),
              },
            ],
          },
        },
        confirmingDelete: {
          tags: ['selection', 'confirmDelete'],
          on: {
            'delete.confirm': 'deleting',
            'delete.cancel': {
              target: 'selected',
              actions: assign({ deleteScope: null, error: null }),
            },
          },
        },
        deleting: {
          tags: ['busy', 'selection', 'confirmDelete', 'deleting'],
          entry: assign({ error: null }),
          invoke: {
            id: 'deleteAvailability',
            src: 'deleteAvailability',
            input: ({ context }): DeleteAvailabilityInput => {
              const selection = context.selection!;
              return context.deleteScope === 'occurrence'
                ? {
                    op: 'occurrence',
                    id: selection.availabilityId,
                    occurrenceDate: selection.occurrenceDate,
                  }
                : { op: 'series', id: selection.availabilityId };
            },
            onDone: {
              target: '#availabilityWeek.loading',
              actions: [assign({ selection: null, deleteScope: null }), 'notifyDeleted'],
            },
            onError: {
              target: 'confirmingDelete',
              actions: assign({ error: ({ event }) => toScheduleError(event.error) }),
            },
          },
        },
      },
    },
  },
});

export { WEEKDAYS };
