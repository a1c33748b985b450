import type { Temporal } from '@js-temporal/polyfill';
import type { components } from '../../../shared/contract/product';
import {
  formatRule,
  parseRule,
  weekdayOf,
  WEEKDAYS,
  type Weekday,
} from '../../../shared/recurrence';
import { inBerlin, parsePlainDate, wallTimeToInstant } from '../../../shared/time';
import type { Availability } from '../scheduling/shared';

/**
 * The form of `/availability` that creates a block or changes a series or one occurrence:
 * the draft as typed, how it starts, how it changes, how it is checked, and the request a
 * valid draft makes.
 */

export type CreateAvailabilityBody = components['schemas']['CreateAvailabilityRequest'];
export type UpdateAvailabilityBody = components['schemas']['UpdateAvailabilityRequest'];
export type UpdateOccurrenceBody = components['schemas']['UpdateOccurrenceRequest'];

export type SaveAvailabilityInput =
  | { op: 'create'; body: CreateAvailabilityBody; idempotencyKey: string }
  | { op: 'series'; id: string; body: UpdateAvailabilityBody }
  | { op: 'occurrence'; id: string; body: UpdateOccurrenceBody };

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

/** The fields `form.change` sets from a typed or chosen value (the days are toggled instead). */
export type ChangedField = Exclude<DraftField, 'days'> | 'repeat';

const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const MAX_COUNT = 999;
const MAX_NOTE = 500;

export function newDraft(date: string, startTime = '09:00', endTime = '12:00'): AvailabilityDraft {
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

export function seriesDraft(a: Availability): AvailabilityDraft {
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

export function occurrenceDraft(
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
export const SERVER_FIELDS: Partial<Record<string, DraftField>> = {
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

/** The draft after `form.change`: the field's new value, its error gone until the next check. */
export function changeDraft(
  draft: AvailabilityDraft,
  errors: DraftErrors,
  field: ChangedField,
  value: string,
): { draft: AvailabilityDraft; fieldErrors: DraftErrors } {
  const { [field as DraftField]: _gone, ...fieldErrors } = errors;
  if (field === 'repeat') return { draft: { ...draft, repeat: value === 'true' }, fieldErrors };
  if (field === 'kind') {
    return {
      draft: { ...draft, kind: value === 'blocker' ? 'blocker' : 'available' },
      fieldErrors,
    };
  }
  if (field === 'endKind') {
    const endKind: EndKind = value === 'until' || value === 'count' ? value : 'never';
    return { draft: { ...draft, endKind }, fieldErrors };
  }
  return { draft: { ...draft, [field]: value }, fieldErrors };
}

/** The draft after `form.toggleDay`: the day on or off, the days kept in week order. */
export function toggleDraftDay(
  draft: AvailabilityDraft,
  errors: DraftErrors,
  day: Weekday,
): { draft: AvailabilityDraft; fieldErrors: DraftErrors } {
  const days = draft.days.includes(day)
    ? draft.days.filter((d) => d !== day)
    : WEEKDAYS.filter((d) => d === day || draft.days.includes(d));
  const { days: _gone, ...fieldErrors } = errors;
  return { draft: { ...draft, days }, fieldErrors };
}
