import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Temporal } from '@js-temporal/polyfill';
import { ZONE } from '../../../shared/time';
import { instant, instantOf, isoOf, isoOfMs, minutesBetween } from '../../time';
import type { Tx } from '../../db/client';
import { availabilities, availabilityOverrides, coaches } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { reachesCoach } from '../../access/policy';
import { defineHandlers, type AppDeps } from '../../http/handler';
import { badRequest, forbidden, notFound } from '../../http/problem';
import { changedFields, recordEvent, updateRecorded } from '../events/index';
import {
  isOccurrenceDate,
  RuleError,
  seriesBounds,
  type OverrideFields,
  type SeriesFields,
} from './occurrences';
import {
  availabilityScope,
  findAvailability,
  overlapsWindow,
  overrideFields,
  selectAvailabilities,
  toAvailability,
  type LoadedAvailability,
} from './repository';
import { queryWindow } from './window';
import type { EventType } from '../../../shared/contract/enums';
import { inTransaction } from '../../db/transaction';

/** The default occurrence window of single-availability answers, in Berlin days. */
const DEFAULT_WINDOW = { weeks: 8 };
const MAX_OCCURRENCE_MINUTES = 24 * 60;
const MAX_LIST_DAYS = 366;

/** Rule problems are the caller's bad input: 400 naming the field. */
function bounds(series: SeriesFields, overrides: OverrideFields[] = []) {
  try {
    return seriesBounds(series, overrides);
  } catch (error) {
    if (error instanceof RuleError) throw badRequest(error.field, error.code, error.message);
    throw error;
  }
}

function occurs(series: SeriesFields, date: string) {
  try {
    return isOccurrenceDate(series, date);
  } catch (error) {
    if (error instanceof RuleError) return false;
    throw error;
  }
}

/** A coach manages only their own availability. */
function assertOwnCoach(principal: Principal, coachId: string) {
  if (!reachesCoach(principal, coachId)) {
    throw forbidden('forbidden_scope', 'Coaches manage only their own availability');
  }
}

/** The same Berlin wall time 8 weeks after `start`. */
const defaultEnd = (start: Temporal.Instant) =>
  start.toZonedDateTimeISO(ZONE).add(DEFAULT_WINDOW).toInstant();

/** The default occurrence window of single-availability answers: now and the next 8 weeks. */
function defaultWindow(deps: AppDeps) {
  const from = instantOf(deps.now());
  return { from: from.epochMilliseconds, to: defaultEnd(from).epochMilliseconds };
}

async function loadForUpdate(tx: Tx, principal: Principal, id: string) {
  const found = await findAvailability(tx, principal, id);
  if (!found) throw notFound('availability');
  await tx
    .select({ id: availabilities.id })
    .from(availabilities)
    .where(eq(availabilities.id, id))
    .for('update');
  return found;
}

/** Keeps series_start/series_end right after the overrides changed. */
async function refreshBounds(tx: Tx, loaded: LoadedAvailability) {
  const overrides = await tx
    .select()
    .from(availabilityOverrides)
    .where(eq(availabilityOverrides.availabilityId, loaded.availability.id));
  await tx
    .update(availabilities)
    .set({ ...bounds(loaded.availability, overrides.map(overrideFields)), updatedAt: sql`now()` })
    .where(eq(availabilities.id, loaded.availability.id));
}

/**
 * One occurrence of a series moved to `times`, or removed (null): the series' override for that
 * date is written, its bounds refreshed and the event recorded (404 for a date it does not have).
 */
async function overrideOccurrence(
  tx: Tx,
  principal: Principal,
  id: string,
  occurrenceDate: string,
  times: { startDate: string; endDate: string } | null,
  event: { type: EventType; changes: Record<string, unknown> },
) {
  const before = await loadForUpdate(tx, principal, id);
  if (!occurs(before.availability, occurrenceDate)) throw notFound('occurrence');
  const fields = {
    cancelled: times === null,
    startDate: times?.startDate ?? null,
    endDate: times?.endDate ?? null,
  };
  await tx
    .insert(availabilityOverrides)
    .values({ availabilityId: id, occurrenceDate, ...fields })
    .onConflictDoUpdate({
      target: [availabilityOverrides.availabilityId, availabilityOverrides.occurrenceDate],
      set: { ...fields, updatedAt: sql`now()` },
    });
  await refreshBounds(tx, before);
  await recordEvent(tx, {
    ...event,
    entityType: 'availability',
    entityId: id,
    coachId: before.availability.coachId,
    actor: principal,
    important: false,
  });
}

async function answer(tx: Tx, principal: Principal, id: string, deps: AppDeps) {
  const { from, to } = defaultWindow(deps);
  return toAvailability((await findAvailability(tx, principal, id))!, from, to);
}

export const availabilityHandlers = defineHandlers({
  async createAvailability({ body, principal, deps, reply }) {
    assertOwnCoach(principal, body.coachId);
    const series: SeriesFields = {
      startDay: body.startDay,
      startTime: body.startTime,
      endTime: body.endTime,
      recurrence: body.recurrence ?? null,
    };
    const seriesWindow = bounds(series);
    const created = await inTransaction(deps.db, async (tx) => {
      const [coach] = await tx
        .select({ active: coaches.active })
        .from(coaches)
        .where(eq(coaches.id, body.coachId));
      if (!coach) throw badRequest('coachId', 'unknown_coach', 'No coach with this id');
      if (!coach.active) throw badRequest('coachId', 'coach_inactive', 'The coach is not active');
      const [row] = await tx
        .insert(availabilities)
        .values({
          coachId: body.coachId,
          kind: body.kind ?? 'available',
          ...series,
          ...seriesWindow,
          note: body.note ?? null,
          createdById: principal.user?.id ?? null,
        })
        .returning({ id: availabilities.id });
      await recordEvent(tx, {
        type: 'availability.created',
        entityType: 'availability',
        entityId: row!.id,
        coachId: body.coachId,
        actor: principal,
        important: false,
        changes: { kind: body.kind ?? 'available', ...series },
      });
      return answer(tx, principal, row!.id, deps);
    });
    reply.code(201);
    return created;
  },

  async listAvailability({ query, principal, deps }) {
    const { from, to } = queryWindow(query.startDate, query.endDate, MAX_LIST_DAYS);
    const rows = await selectAvailabilities(
      deps.db,
      and(
        overlapsWindow(isoOfMs(from), isoOfMs(to)),
        availabilityScope(principal),
        query.coachId ? eq(availabilities.coachId, query.coachId) : undefined,
      ),
    );
    return { availabilities: rows.map((r) => toAvailability(r, from, to)) };
  },

  async getAvailability({ params, query, principal, deps }) {
    const found = await findAvailability(deps.db, principal, params.id);
    if (!found) throw notFound('availability');
    const start = query.startDate ?? isoOf(instantOf(deps.now()));
    const end = query.endDate ?? isoOf(defaultEnd(instant(start)));
    const { from, to } = queryWindow(start, end, MAX_LIST_DAYS);
    return toAvailability(found, from, to);
  },

  async updateAvailability({ params, body, principal, deps }) {
    return inTransaction(deps.db, async (tx) => {
      const before = await loadForUpdate(tx, principal, params.id);
      const a = before.availability;
      const series: SeriesFields = {
        startDay: body.startDay ?? a.startDay,
        startTime: body.startTime ?? a.startTime,
        endTime: body.endTime ?? a.endTime,
        recurrence: body.recurrence === undefined ? a.recurrence : body.recurrence,
      };
      // Overrides of dates the new rule no longer generates are dropped.
      const kept = before.overrides.filter((o) => occurs(series, o.occurrenceDate));
      const dropped = before.overrides.filter((o) => !kept.includes(o)).map((o) => o.id);
      const seriesWindow = bounds(series, kept.map(overrideFields));
      if (dropped.length) {
        await tx.delete(availabilityOverrides).where(inArray(availabilityOverrides.id, dropped));
      }
      const values = {
        ...series,
        ...seriesWindow,
        ...(body.kind === undefined ? {} : { kind: body.kind }),
        ...(body.note === undefined ? {} : { note: body.note }),
      };
      await updateRecorded(tx, availabilities, a.id, values, {
        type: 'availability.updated',
        entityType: 'availability',
        coachId: a.coachId,
        actor: principal,
        important: false,
        changes: {
          ...changedFields(
            { ...a, startTime: a.startTime.slice(0, 5), endTime: a.endTime.slice(0, 5) },
            body,
          ),
          ...(dropped.length ? { droppedOverrides: dropped.length } : {}),
        },
      });
      return answer(tx, principal, a.id, deps);
    });
  },

  async deleteAvailability({ params, principal, deps }) {
    await inTransaction(deps.db, async (tx) => {
      const before = await loadForUpdate(tx, principal, params.id);
      await tx.delete(availabilities).where(eq(availabilities.id, params.id));
      await recordEvent(tx, {
        type: 'availability.deleted',
        entityType: 'availability',
        entityId: params.id,
        coachId: before.availability.coachId,
        actor: principal,
        important: false,
      });
    });
  },

  async updateAvailabilityOccurrence({ params, body, principal, deps }) {
    const minutes = minutesBetween(body.startDate, body.endDate);
    if (!(minutes > 0))
      throw badRequest('endDate', 'end_before_start', 'endDate must be after startDate');
    if (minutes > MAX_OCCURRENCE_MINUTES)
      throw badRequest('endDate', 'value_too_large', 'An occurrence lasts at most 24 hours');
    return inTransaction(deps.db, async (tx) => {
      await overrideOccurrence(tx, principal, params.id, body.occurrenceDate, body, {
        type: 'availability.occurrence_changed',
        changes: { ...body },
      });
      return answer(tx, principal, params.id, deps);
    });
  },

  async deleteAvailabilityOccurrence({ params, query, principal, deps }) {
    await inTransaction(deps.db, (tx) =>
      overrideOccurrence(tx, principal, params.id, query.occurrenceDate, null, {
        type: 'availability.occurrence_removed',
        changes: { occurrenceDate: query.occurrenceDate },
      }),
    );
  },
});
