import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  pgTable,
  text,
  time,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { AVAILABILITY_KINDS } from '../../../shared/contract/enums';
import { createdAt, inList, ownedBy, ts, updatedAt, uuidId } from './columns';
import { coaches, users } from './core';

// A coach's availability (or blocker): one-off when `recurrence` is null, otherwise an
// RFC 5545 RRULE (FREQ=WEEKLY only) evaluated in Europe/Berlin wall time with
// DTSTART = start_day + start_time. series_start/series_end are the UTC bounds of the whole
// series, kept by the application so window queries need no RRULE expansion in SQL
// (series_end null = open-ended rule).
export const availabilities = pgTable(
  'availabilities',
  {
    id: uuidId(),
    coachId: ownedBy('coach_id', () => coaches.id),
    kind: text('kind', { enum: AVAILABILITY_KINDS }).notNull().default('available'),
    startDay: date('start_day', { mode: 'string' }).notNull(),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    recurrence: text('recurrence'),
    seriesStart: ts('series_start').notNull(),
    seriesEnd: ts('series_end'),
    note: text('note'),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('availabilities_coach_window_idx').on(t.coachId, t.seriesStart, t.seriesEnd),
    index('availabilities_window_idx').on(t.seriesStart, t.seriesEnd),
    index('availabilities_kind_idx').on(t.kind, t.coachId),
    check('availabilities_kind_check', sql`${t.kind} IN ${inList(AVAILABILITY_KINDS)}`),
    check('availabilities_time_check', sql`${t.endTime} > ${t.startTime}`),
    check(
      'availabilities_recurrence_check',
      // Full RRULE validation is the contract's pattern; the database keeps the basic shape.
      sql`${t.recurrence} IS NULL OR (${t.recurrence} LIKE 'FREQ=WEEKLY%' AND char_length(${t.recurrence}) <= 200)`,
    ),
    check(
      'availabilities_series_check',
      sql`${t.seriesEnd} IS NULL OR ${t.seriesEnd} > ${t.seriesStart}`,
    ),
  ],
);

// Per-occurrence override: removes (cancelled) or moves/shortens one occurrence, keyed by
// the local date the rule generated.
export const availabilityOverrides = pgTable(
  'availability_overrides',
  {
    id: uuidId(),
    availabilityId: ownedBy('availability_id', () => availabilities.id),
    occurrenceDate: date('occurrence_date', { mode: 'string' }).notNull(),
    cancelled: boolean('cancelled').notNull().default(false),
    startDate: ts('start_date'),
    endDate: ts('end_date'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('availability_overrides_occurrence_key').on(t.availabilityId, t.occurrenceDate),
    index('availability_overrides_start_idx').on(t.startDate),
    check(
      'availability_overrides_shape_check',
      sql`${t.cancelled} OR (${t.startDate} IS NOT NULL AND ${t.endDate} IS NOT NULL AND ${t.endDate} > ${t.startDate})`,
    ),
  ],
);
