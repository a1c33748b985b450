import { Temporal } from '@js-temporal/polyfill';
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  isNotNull,
  isNull,
  lt,
  sql,
} from 'drizzle-orm';
import type { PgSelect, SelectedFields } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client';
import { appointments, clients, coaches } from '../../db/schema/index';
import { listScopeOf, type ListScope, type Principal } from '../../http/auth';
import { defineHandlers, type AppDeps, type Query } from '../../http/handler';
import { preparedOnce } from '../../db/prepared';
import { countQuery, one, pageCounts, pageWindow, totalColumn } from '../../http/paging';
import { badRequest, conflict, forbidden, notFound } from '../../http/problem';
import { changedFields, recordEvent } from '../events/record';
import { enqueueAppointmentNotifications } from '../notifications/enqueue';
import {
  guardOverlap,
  inCoachQueue,
  insertAppointment,
  lockCoachCalendar,
  overlapsLive,
  slotTaken,
} from './booking';
import {
  appointmentClient as client,
  appointmentScope,
  findAppointment,
  selectAppointmentPage,
  selectAppointments,
  toAppointment,
} from './repository';

const ZONE = 'Europe/Berlin';
const ONGOING_MS = 30 * 60_000;
const MAX_DURATION_MS = 12 * 60 * 60_000;
const UPCOMING_LIMIT = 10;

function assertRange(start: string, end: string) {
  const ms = Date.parse(end) - Date.parse(start);
  if (!(ms > 0)) throw badRequest('endDate', 'end_before_start', 'The end must be after the start');
  if (ms > MAX_DURATION_MS) {
    throw badRequest('endDate', 'value_too_large', 'An appointment lasts at most 12 hours');
  }
}

/**
 * A provisional appointment holds its slot for the configured time from when it is made
 * (or marked) provisional; releasing expired holds is the scheduler's job.
 */
function provisionalUntil(deps: AppDeps, isProvisional: boolean): string | null {
  if (!isProvisional) return null;
  return new Date(
    deps.now().getTime() + deps.config.PROVISIONAL_HOLD_MINUTES * 60_000,
  ).toISOString();
}

/** A coach books and moves only their own appointments. */
function assertOwnCoach(principal: Principal, coachId: string) {
  if (principal.role === 'COACH' && principal.user?.coachId !== coachId) {
    throw forbidden('forbidden_scope', 'Coaches manage only their own appointments');
  }
}

async function assertParties(tx: Tx, clientId: string | undefined, coachId: string | undefined) {
  if (clientId) {
    const [row] = await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId));
    if (!row) throw badRequest('clientId', 'unknown_client', 'No client with this id');
  }
  if (coachId) {
    const [row] = await tx
      .select({ active: coaches.active })
      .from(coaches)
      .where(eq(coaches.id, coachId));
    if (!row) throw badRequest('coachId', 'unknown_coach', 'No coach with this id');
    if (!row.active) throw badRequest('coachId', 'coach_inactive', 'The coach is not active');
  }
}

// Filters that compare a column with the caller's value; the value is a placeholder, so one
// prepared query serves every value (see preparedOnce).
const VALUE_FILTERS = [
  'fromDate',
  'toDate',
  'appointmentType',
  'noShow',
  'participatingInResearch',
  'selfOrRelative',
  'campaign',
  'insurer',
  'coach',
  'clientId',
] as const;

function listFilters(scope: ListScope, q: Query<'listAppointments'>) {
  const value = (name: string) => sql.placeholder(name);
  const has = (name: (typeof VALUE_FILTERS)[number]) => q[name] !== undefined;
  return and(
    scope === 'coach' ? eq(appointments.coachId, value('scopeCoach')) : undefined,
    scope === 'none' ? sql`false` : undefined,
    has('fromDate') ? gte(appointments.startDate, value('fromDate')) : undefined,
    has('toDate') ? lt(appointments.startDate, value('toDate')) : undefined,
    has('appointmentType') ? eq(appointments.appointmentType, value('appointmentType')) : undefined,
    q.cancelled === undefined
      ? undefined
      : q.cancelled
        ? isNotNull(appointments.cancelledAt)
        : isNull(appointments.cancelledAt),
    has('noShow') ? eq(appointments.noShow, value('noShow')) : undefined,
    has('participatingInResearch')
      ? eq(client.wantsToProvideRecordingsForResearch, value('participatingInResearch'))
      : undefined,
    has('selfOrRelative') ? eq(client.clientType, value('selfOrRelative')) : undefined,
    has('campaign') ? eq(client.campaign, value('campaign')) : undefined,
    has('insurer') ? eq(client.insurer, value('insurer')) : undefined,
    has('coach') ? eq(appointments.coachId, value('coach')) : undefined,
    has('clientId') ? eq(appointments.clientId, value('clientId')) : undefined,
  );
}

const needsClient = (q: Query<'listAppointments'>) =>
  q.participatingInResearch !== undefined || !!q.selfOrRelative || !!q.campaign || !!q.insurer;

export const appointmentsHandlers = defineHandlers({
  async createAppointment({ body, principal, deps, reply }) {
    assertRange(body.startDate, body.endDate);
    assertOwnCoach(principal, body.coachId);
    // In line behind this process's other writes to the calendar, a taken time is refused
    // with one read and no transaction: under a rush for one slot the losers cost a query.
    const created = await inCoachQueue(body.coachId, async () => {
      if (await overlapsLive(deps.db, body.coachId, body.startDate, body.endDate)) {
        throw slotTaken();
      }
      return deps.db.transaction(async (tx) => {
        await assertParties(tx, body.clientId, body.coachId);
        const id = await insertAppointment(tx, {
          clientId: body.clientId,
          coachId: body.coachId,
          startDate: body.startDate,
          endDate: body.endDate,
          appointmentType: body.appointmentType,
          meetingType: body.meetingType ?? 'jitsi',
          isProvisional: body.isProvisional ?? false,
          provisionalUntil: provisionalUntil(deps, body.isProvisional ?? false),
          externalMeetingUrl: body.externalMeetingUrl ?? null,
        });
        await recordEvent(tx, {
          type: 'appointment.created',
          entityType: 'appointment',
          entityId: id,
          appointmentId: id,
          clientId: body.clientId,
          coachId: body.coachId,
          actor: principal,
          changes: {
            startDate: body.startDate,
            endDate: body.endDate,
            appointmentType: body.appointmentType,
          },
        });
        await enqueueAppointmentNotifications(tx, deps, { appointmentId: id, change: 'booked' });
        return (await findAppointment(tx, principal, id))!;
      });
    });
    reply.code(201);
    return created;
  },

  async getAppointment({ params, principal, deps }) {
    const appointment = await findAppointment(deps.db, principal, params.id);
    if (!appointment) throw notFound('appointment');
    return appointment;
  },

  async updateAppointment({ params, body, principal, deps }) {
    return deps.db.transaction(async (tx) => {
      const before = await findAppointment(tx, principal, params.id);
      if (!before) throw notFound('appointment');
      if (before.cancelledAt) {
        throw conflict('appointment_cancelled', 'A cancelled appointment cannot be changed');
      }
      const coachId = body.coachId ?? before.coachId;
      assertOwnCoach(principal, coachId);
      await assertParties(tx, undefined, body.coachId);
      assertRange(body.startDate ?? before.startDate, body.endDate ?? before.endDate);
      // Lock both calendars in a fixed order so two moves never wait on each other.
      for (const id of [...new Set([before.coachId, coachId])].sort())
        await lockCoachCalendar(tx, id);
      await guardOverlap(tx, () =>
        tx
          .update(appointments)
          .set({
            ...body,
            // Saying isProvisional: true (re)starts the hold; false ends it.
            ...(body.isProvisional === undefined
              ? {}
              : { provisionalUntil: provisionalUntil(deps, body.isProvisional) }),
            updatedAt: sql`now()`,
          })
          .where(eq(appointments.id, before.id)),
      );
      await recordEvent(tx, {
        type: 'appointment.updated',
        entityType: 'appointment',
        entityId: before.id,
        appointmentId: before.id,
        clientId: before.clientId,
        coachId,
        actor: principal,
        changes: changedFields(before, body),
      });
      const after = (await findAppointment(tx, principal, before.id))!;
      // A confirmed hold is a booking; a moved appointment (time or coach) a reschedule.
      const change =
        before.isProvisional && !after.isProvisional
          ? 'booked'
          : after.startDate !== before.startDate ||
              after.endDate !== before.endDate ||
              after.coachId !== before.coachId
            ? 'rescheduled'
            : null;
      if (change) {
        await enqueueAppointmentNotifications(tx, deps, {
          appointmentId: before.id,
          change,
          previousStart: before.startDate,
        });
      }
      return after;
    });
  },

  async deleteAppointment({ params, principal, deps }) {
    return deps.db.transaction(async (tx) => {
      const before = await findAppointment(tx, principal, params.id);
      if (!before) throw notFound('appointment');
      const [row] = await tx
        .update(appointments)
        .set({ cancelledAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(appointments.id, before.id), isNull(appointments.cancelledAt)))
        .returning({ id: appointments.id });
      if (!row) throw conflict('appointment_cancelled', 'The appointment is cancelled already');
      await recordEvent(tx, {
        type: 'appointment.cancelled',
        entityType: 'appointment',
        entityId: before.id,
        appointmentId: before.id,
        clientId: before.clientId,
        coachId: before.coachId,
        actor: principal,
      });
      await enqueueAppointmentNotifications(tx, deps, {
        appointmentId: before.id,
        change: 'cancelled',
      });
      return (await findAppointment(tx, principal, before.id))!;
    });
  },

  async listAppointments({ query, principal, deps }) {
    const { limit, offset } = pageWindow(query.page, query.limit);
    const scope = listScopeOf(principal);
    const descending = query.sortDirection === 'desc';
    const shape = JSON.stringify([
      scope,
      VALUE_FILTERS.filter((name) => query[name] !== undefined),
      query.cancelled,
      descending,
      query.limit ?? 10,
      query.page ?? 1,
    ]);
    const values = { ...query, scopeCoach: principal.user?.coachId };
    // Client-side filters need the join; the rest work on the appointments table alone.
    const matching = (fields: SelectedFields): PgSelect => {
      const q = deps.db.select(fields).from(appointments).$dynamic() as PgSelect;
      const where = listFilters(scope, query);
      return (
        needsClient(query) ? q.innerJoin(client, eq(client.id, appointments.clientId)) : q
      ).where(where);
    };
    const direction = descending ? desc : asc;
    const pageQuery = preparedOnce(deps.db, 'list_appointments', shape, (name) =>
      // The page is chosen on appointments alone and only its rows are joined to names.
      selectAppointmentPage(
        deps.db,
        matching(getTableColumns(appointments))
          .orderBy(direction(appointments.startDate), direction(appointments.id))
          .limit(limit)
          .offset(offset),
        direction,
        { total: totalColumn(matching(one)) },
      ).prepare(name),
    );
    const rows = await pageQuery.execute(values);
    return {
      appointments: rows.map(toAppointment),
      ...(await pageCounts(rows, () =>
        preparedOnce(deps.db, 'count_appointments', shape, (name) =>
          countQuery(deps.db, matching(one)).prepare(name),
        ).execute(values),
      )),
    };
  },

  async listUpcomingAppointments({ query, principal, deps }) {
    const dayStart = Temporal.PlainDate.from(query.forDate)
      .toZonedDateTime({ timeZone: ZONE })
      .toInstant()
      .toString();
    const ongoingSince = new Date(deps.now().getTime() - ONGOING_MS).toISOString();
    const rows = await selectAppointments(deps.db)
      .where(
        and(
          appointmentScope(principal),
          isNull(appointments.cancelledAt),
          gte(appointments.startDate, dayStart),
          gt(appointments.startDate, ongoingSince),
          query.coachId ? eq(appointments.coachId, query.coachId) : undefined,
          query.clientId ? eq(appointments.clientId, query.clientId) : undefined,
        ),
      )
      .orderBy(asc(appointments.startDate), asc(appointments.id))
      .limit(UPCOMING_LIMIT);
    return { appointments: rows.map(toAppointment) };
  },
});
