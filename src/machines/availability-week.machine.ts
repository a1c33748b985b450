import type { Temporal } from '@js-temporal/polyfill';
import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import type { Role } from './session.machine';
import {
  fieldErrorsOf,
  picksCoach,
  coachGuards,
  startingState,
  toScheduleError,
  type Availability,
  type CoachOption,
  type ScheduleError,
} from './scheduling/shared';
import { formatRule, parseRule, weekdayOf, WEEKDAYS, type Weekday } from '../../shared/recurrence';
import { inBerlin, mondayOf, parsePlainDate, wallTimeToInstant, windowOf } from '../../shared/time';
import { notProvided as notProvidedBy } from './shared/failures';
import { keyFor, type WriteKey } from './shared/write-key';

/**
 * `/availability`: one coach's week of recurring blocks and exceptions. Coaches see their own;
 * admins and onboarding managers pick the coach. A block of the week can be created, and an
 * occurrence selected to edit or delete the whole series or only that occurrence.
 *
 * starting → (loadingCoaches →) loading → ready.idle ⇄ ready.selected → ready.editing →
 * ready.saving → loading; ready.selected → ready.confirmingDelete → ready.deleting → loading.
 */

export type CreateAvailabilityBody = components['schemas']['CreateAvailabilityRequest'];
export type UpdateAvailabilityBody = components['schemas']['UpdateAvailabilityRequest'];
export type UpdateOccurrenceBody = components['schemas']['UpdateOccurrenceRequest'];

export type SaveAvailabilityInput =
  | { op: 'create'; body: CreateAvailabilityBody; idempotencyKey: string }
  | { op: 'series'; id: string; body: UpdateAvailabilityBody }
  | { op: 'occurrence'; id: string; body: UpdateOccurrenceBody };

export type DeleteAvailabilityInput =
  { op: 'series'; id: string } | { op: 'occurrence'; id: string; occurrenceDate: string };

export interface LoadWeekInput {
  coachId: string;
  startDate: string;
  endDate: string;
}

export type DraftMode = 'create' | 'series' | 'occurrence';
export type EndKind = 'never' | 'until' | 'count';

/** The form: strings as typed, checked on submit. */
export interface AvailabilityDraft {
  mode: DraftMode;
  availabilityId: string | null;
  occurrenceDate: string | null;
  kind: 'available' | 'blocker';
  /** The day (create, occurrence) or the first day of the series. */
  startDay: string;
  startTime: string;
  endTime: string;
  repeat: boolean;
  interval: string;
  days: Weekday[];
  endKind: EndKind;
  until: string;
  count: string;
  note: string;
}

export type DraftField =
  | 'kind'
  | 'startDay'
  | 'startTime'
  | 'endTime'
  | 'interval'
  | 'days'
  | 'endKind'
  | 'until'
  | 'count'
  | 'note';

export type DraftErrors = Partial<Record<DraftField, string>>;

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
  role: Role;
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
  | { type: 'form.change'; field: Exclude<DraftField, 'days'> | 'repeat'; value: string }
  | { type: 'form.toggleDay'; day: Weekday }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'retry' };

const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const MAX_COUNT = 999;
const MAX_NOTE = 500;

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

function newDraft(date: string, startTime = '09:00', endTime = '12:00'): AvailabilityDraft {
  const day = parsePlainDate(date);
  return {
    mode: 'create',
    availabilityId: null,
    occurrenceDate: null,
    kind: 'available',
    startDay: date,
    startTime,
    endTime,
    repeat: true,
    interval: '1',
    days: day ? [weekdayOf(day.dayOfWeek)] : [],
    endKind: 'never',
    until: '',
    count: '',
    note: '',
  };
}

function seriesDraft(a: Availability): AvailabilityDraft {
  const first = parsePlainDate(a.startDay);
  const rule = a.recurrence ? parseRule(a.recurrence, first?.dayOfWeek ?? 1) : null;
  return {
    mode: 'series',
    availabilityId: a.id,
    occurrenceDate: null,
    kind: a.kind,
    startDay: a.startDay,
    startTime: a.startTime,
    endTime: a.endTime,
    repeat: rule !== null,
    interval: String(rule?.interval ?? 1),
    days: rule?.days ?? (first ? [weekdayOf(first.dayOfWeek)] : []),
    endKind: rule?.end.kind ?? 'never',
    until: rule?.end.kind === 'until' ? rule.end.date : '',
    count: rule?.end.kind === 'count' ? String(rule.end.count) : '',
    note: a.note ?? '',
  };
}

function occurrenceDraft(
  a: Availability,
  occurrenceDate: string,
  startDate: string,
  endDate: string,
): AvailabilityDraft {
  const start = inBerlin(startDate);
  const end = inBerlin(endDate);
  const hhmm = (z: Temporal.ZonedDateTime) =>
    `${String(z.hour).padStart(2, '0')}:${String(z.minute).padStart(2, '0')}`;
  return {
    ...seriesDraft(a),
    mode: 'occurrence',
    occurrenceDate,
    startDay: start.toPlainDate().toString(),
    startTime: hhmm(start),
    endTime: hhmm(end),
  };
}

/** Checks the form; returns the errors by field (codes the view translates). */
export function validateDraft(draft: AvailabilityDraft): DraftErrors {
  const errors: DraftErrors = {};
  const first = parsePlainDate(draft.startDay);
  if (!first) errors.startDay = 'invalid_date';
  if (!TIME.test(draft.startTime)) errors.startTime = 'invalid_time';
  if (!TIME.test(draft.endTime)) errors.endTime = 'invalid_time';
  else if (TIME.test(draft.startTime) && draft.endTime <= draft.startTime)
    errors.endTime = 'end_before_start';
  if (draft.note.length > MAX_NOTE) errors.note = 'value_too_long';
  if (draft.mode !== 'occurrence' && draft.repeat) {
    const interval = Number(draft.interval);
    if (!Number.isInteger(interval) || interval < 1 || interval > 99)
      errors.interval = 'invalid_interval';
    if (draft.days.length === 0) errors.days = 'value_missing';
    if (draft.endKind === 'until') {
      const until = parsePlainDate(draft.until);
      if (!until) errors.until = 'invalid_date';
      else if (first && until.until(first).sign > 0) errors.until = 'until_before_start';
    }
    if (draft.endKind === 'count') {
      const count = Number(draft.count);
      if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT)
        errors.count = 'invalid_count';
    }
  }
  return errors;
}

/** The API call a valid draft makes. */
export function saveInput(
  draft: AvailabilityDraft,
  coachId: string,
  idempotencyKey: string,
): SaveAvailabilityInput {
  const note = draft.note.trim() === '' ? null : draft.note.trim();
  const recurrence = draft.repeat
    ? formatRule({
        interval: Number(draft.interval),
        days: draft.days,
        end:
          draft.endKind === 'until'
            ? { kind: 'until', date: draft.until }
            : draft.endKind === 'count'
              ? { kind: 'count', count: Number(draft.count) }
              : { kind: 'never' },
      })
    : null;
  const series = {
    kind: draft.kind,
    startDay: draft.startDay,
    startTime: draft.startTime,
    endTime: draft.endTime,
    recurrence,
    note,
  };
  switch (draft.mode) {
    case 'create':
      return { op: 'create', body: { coachId, ...series }, idempotencyKey };
    case 'series':
      return { op: 'series', id: draft.availabilityId!, body: series };
    case 'occurrence':
      return {
        op: 'occurrence',
        id: draft.availabilityId!,
        body: {
          occurrenceDate: draft.occurrenceDate!,
          startDate: wallTimeToInstant(draft.startDay, draft.startTime),
          endDate: wallTimeToInstant(draft.startDay, draft.endTime),
        },
      };
  }
}

/** Server field names → form fields. */
const SERVER_FIELDS: Partial<Record<string, DraftField>> = {
  kind: 'kind',
  startDay: 'startDay',
  startTime: 'startTime',
  endTime: 'endTime',
  recurrence: 'days',
  note: 'note',
  occurrenceDate: 'startDay',
  startDate: 'startTime',
  endDate: 'endTime',
};

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
    canPickCoach: picksCoach(input.role),
    coaches: [],
    coachId: picksCoach(input.role) ? null : input.ownCoachId,
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
              actions: assign(({ context, event }) => {
                const draft = context.draft!;
                const { [event.field as DraftField]: _gone, ...fieldErrors } = context.fieldErrors;
                if (event.field === 'repeat')
                  return { draft: { ...draft, repeat: event.value === 'true' }, fieldErrors };
                if (event.field === 'kind') {
                  return {
                    draft: { ...draft, kind: event.value === 'blocker' ? 'blocker' : 'available' },
                    fieldErrors,
                  };
                }
                if (event.field === 'endKind') {
                  const endKind: EndKind =
                    event.value === 'until' || event.value === 'count' ? event.value : 'never';
                  return { draft: { ...draft, endKind }, fieldErrors };
                }
                return { draft: { ...draft, [event.field]: event.value }, fieldErrors };
              }),
            },
            'form.toggleDay': {
              actions: assign(({ context, event }) => {
                const draft = context.draft!;
                const days = draft.days.includes(event.day)
                  ? draft.days.filter((d) => d !== event.day)
                  : WEEKDAYS.filter((d) => d === event.day || draft.days.includes(d));
                const { days: _gone, ...fieldErrors } = context.fieldErrors;
                return { draft: { ...draft, days }, fieldErrors };
              }),
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
