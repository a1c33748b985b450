import type { components } from '../../../shared/contract/product';
import { inTransaction } from '../../db/transaction';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  calendarBusyTimes,
  calendarConnections,
  coaches,
  connectedCalendars,
} from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { reachesCoach } from '../../access/policy';
import { defineHandlers } from '../../http/handler';
import { badRequest, HttpProblem, notFound } from '../../http/problem';
import { recordEvent } from '../events/index';
import { CalDavError, openCalDav } from './caldav';
import { saveRefusalOf } from '../webhooks';
import { sealPassword } from './password';
import { applyDiscovered, raiseScheduleVersion, SYNC_CALENDAR_JOB } from './sync';
import { queueCoachRewrite } from './writeback';

const MAX_CONNECTIONS = 20;

/** What a connection's last sync or write ran into (the column holds the code as text). */
type ConnectionErrorCode = components['schemas']['CalendarConnection']['errorCode'];

const PROBLEM_DETAIL = {
  calendar_unauthorized: 'The calendar server refused the user name or app password',
  calendar_unreachable: 'The calendar server did not answer',
  calendar_not_caldav: 'No CalDAV calendars were found at this address',
} as const;

/** Coaches reach only their own connections (404 for another coach's, as records are). */
async function assertCoach(db: Db, principal: Principal, coachId: string) {
  if (!reachesCoach(principal, coachId)) throw notFound('coach');
  const [row] = await db.select({ id: coaches.id }).from(coaches).where(eq(coaches.id, coachId));
  if (!row) throw notFound('coach');
}

async function connectionsOf(db: Db | Tx, coachId: string, connectionId?: string) {
  const rows = await db
    .select()
    .from(calendarConnections)
    .where(
      and(
        eq(calendarConnections.coachId, coachId),
        connectionId ? eq(calendarConnections.id, connectionId) : undefined,
      ),
    )
    .orderBy(calendarConnections.createdAt);
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const calendars = await db
    .select()
    .from(connectedCalendars)
    .where(inArray(connectedCalendars.connectionId, ids))
    .orderBy(connectedCalendars.displayName, connectedCalendars.url);
  const busy = await db
    .select({ connectionId: connectedCalendars.connectionId, n: count() })
    .from(calendarBusyTimes)
    .innerJoin(connectedCalendars, eq(connectedCalendars.id, calendarBusyTimes.calendarId))
    .where(inArray(connectedCalendars.connectionId, ids))
    .groupBy(connectedCalendars.connectionId);
  // The sealed password is never part of an answer.
  return rows.map((row) => ({
    id: row.id,
    coachId: row.coachId,
    serverUrl: row.serverUrl,
    username: row.username,
    allDayBlocks: row.allDayBlocks,
    status: row.status,
    errorCode: row.errorCode as ConnectionErrorCode,
    lastSyncedAt: row.lastSyncedAt,
    lastAttemptAt: row.lastAttemptAt,
    shareClientFirstName: row.shareClientFirstName,
    writeErrorCode: row.writeErrorCode as ConnectionErrorCode,
    busyTimes: busy.find((b) => b.connectionId === row.id)?.n ?? 0,
    calendars: calendars
      .filter((c) => c.connectionId === row.id)
      .map((c) => ({
        id: c.id,
        displayName: c.displayName,
        blocks: c.blocks,
        receives: c.receives,
      })),
    createdAt: row.createdAt,
  }));
}

async function oneConnection(db: Db | Tx, coachId: string, connectionId: string) {
  const [connection] = await connectionsOf(db, coachId, connectionId);
  if (!connection) throw notFound('calendar connection');
  return connection;
}

export const calendarsHandlers = defineHandlers({
  async listCalendarConnections({ params, principal, deps }) {
    await assertCoach(deps.db, principal, params.coachId);
    return { connections: await connectionsOf(deps.db, params.coachId) };
  },

  async createCalendarConnection({ params, body, principal, deps, reply }) {
    await assertCoach(deps.db, principal, params.coachId);
    const [existing] = await deps.db
      .select({ n: count() })
      .from(calendarConnections)
      .where(eq(calendarConnections.coachId, params.coachId));
    if ((existing?.n ?? 0) >= MAX_CONNECTIONS) {
      throw badRequest('serverUrl', 'too_many', `At most ${MAX_CONNECTIONS} connections`);
    }
    const refusal = await saveRefusalOf(body.serverUrl, deps.config.CALENDAR_ALLOW_PRIVATE_SERVERS);
    if (refusal) throw badRequest('serverUrl', 'calendar_server_refused', refusal);
    let remote;
    try {
      const session = await openCalDav(body, {
        allowPrivate: deps.config.CALENDAR_ALLOW_PRIVATE_SERVERS,
      });
      try {
        remote = await session.calendars();
      } finally {
        session.close();
      }
      if (!remote.length) throw new CalDavError('calendar_not_caldav');
    } catch (error) {
      if (!(error instanceof CalDavError)) {
        throw new HttpProblem(
          422,
          'calendar_unreachable',
          'Unprocessable Content',
          PROBLEM_DETAIL.calendar_unreachable,
        );
      }
      throw new HttpProblem(422, error.code, 'Unprocessable Content', PROBLEM_DETAIL[error.code]);
    }
    const id = await inTransaction(deps.db, async (tx) => {
      const [row] = await tx
        .insert(calendarConnections)
        .values({
          coachId: params.coachId,
          serverUrl: body.serverUrl,
          username: body.username,
          sealedPassword: sealPassword(deps.config, params.coachId, body.password),
          allDayBlocks: body.allDayBlocks ?? true,
          shareClientFirstName: body.shareClientFirstName ?? false,
        })
        .returning({ id: calendarConnections.id });
      await applyDiscovered(tx, row!.id, remote);
      // Who connected which account, never the password.
      await recordEvent(tx, {
        type: 'calendar_connection.connected',
        entityType: 'calendar_connection',
        entityId: row!.id,
        coachId: params.coachId,
        actor: principal,
        changes: { serverUrl: body.serverUrl, username: body.username },
      });
      return row!.id;
    });
    reply.code(201);
    return oneConnection(deps.db, params.coachId, id);
  },

  async updateCalendarConnection({ params, body, principal, deps }) {
    await assertCoach(deps.db, principal, params.coachId);
    const current = await oneConnection(deps.db, params.coachId, params.connectionId);
    await inTransaction(deps.db, async (tx) => {
      const calendars = await tx
        .select()
        .from(connectedCalendars)
        .where(eq(connectedCalendars.connectionId, params.connectionId))
        .for('update');
      const ids = new Set(calendars.map((c) => c.id));
      // Another connection's calendar is treated like any record the caller may not see: 404.
      const notOurs = () =>
        new HttpProblem(
          404,
          'calendar_not_found',
          'Not Found',
          'Not a calendar of this connection',
        );
      const blocking = body.blockingCalendarIds;
      if (blocking?.some((id) => !ids.has(id))) throw notOurs();
      const receiving = body.receivingCalendarId;
      if (receiving && !ids.has(receiving)) throw notOurs();
      const receivingBefore = calendars.find((c) => c.receives)?.id ?? null;
      const rewrite =
        (receiving !== undefined && receiving !== receivingBefore) ||
        (body.shareClientFirstName !== undefined &&
          body.shareClientFirstName !== current.shareClientFirstName);
      // The calendar that stops receiving goes first: only one may receive at any moment.
      const ordered = [...calendars].sort((x, y) => Number(y.receives) - Number(x.receives));
      for (const calendar of ordered) {
        const blocks = blocking ? blocking.includes(calendar.id) : calendar.blocks;
        const receives = receiving === undefined ? calendar.receives : receiving === calendar.id;
        if (blocks === calendar.blocks && receives === calendar.receives) continue;
        // A calendar that stops blocking drops its kept busy times; one that starts is read whole.
        await tx
          .update(connectedCalendars)
          .set({ blocks, receives, ...(blocks ? {} : { syncToken: null, ctag: null }) })
          .where(eq(connectedCalendars.id, calendar.id));
        if (!blocks) {
          await tx.delete(calendarBusyTimes).where(eq(calendarBusyTimes.calendarId, calendar.id));
        }
      }
      if (body.allDayBlocks !== undefined || body.shareClientFirstName !== undefined) {
        await tx
          .update(calendarConnections)
          .set({
            ...(body.allDayBlocks !== undefined ? { allDayBlocks: body.allDayBlocks } : {}),
            ...(body.shareClientFirstName !== undefined
              ? { shareClientFirstName: body.shareClientFirstName }
              : {}),
          })
          .where(eq(calendarConnections.id, params.connectionId));
      }
      // The upcoming appointments follow into the new receiving calendar (and out of the old).
      if (rewrite) {
        await queueCoachRewrite(tx, deps.jobs, params.coachId, params.connectionId, deps.now());
      }
      await raiseScheduleVersion(tx, params.coachId);
      await deps.jobs.send(tx, SYNC_CALENDAR_JOB, { connectionId: params.connectionId });
    });
    return oneConnection(deps.db, params.coachId, params.connectionId);
  },

  async deleteCalendarConnection({ params, principal, deps, reply }) {
    await assertCoach(deps.db, principal, params.coachId);
    await inTransaction(deps.db, async (tx) => {
      // Calendars, objects and busy times go with it (foreign keys cascade).
      const removed = await tx
        .delete(calendarConnections)
        .where(
          and(
            eq(calendarConnections.id, params.connectionId),
            eq(calendarConnections.coachId, params.coachId),
          ),
        )
        .returning({ id: calendarConnections.id });
      if (!removed.length) throw notFound('calendar connection');
      await recordEvent(tx, {
        type: 'calendar_connection.disconnected',
        entityType: 'calendar_connection',
        entityId: params.connectionId,
        coachId: params.coachId,
        actor: principal,
      });
      await raiseScheduleVersion(tx, params.coachId);
    });
    reply.code(204);
    return undefined;
  },

  async syncCalendarConnection({ params, principal, deps, reply }) {
    await assertCoach(deps.db, principal, params.coachId);
    const connection = await oneConnection(deps.db, params.coachId, params.connectionId);
    await deps.jobs.send(deps.db, SYNC_CALENDAR_JOB, { connectionId: connection.id });
    reply.code(202);
    return connection;
  },
});
