/**
 * Appointments written into the coaches' receiving calendars. A booking, move or cancellation
 * only queues a job (in its own transaction, like the mails); the job talks to the calendar
 * server later and is retried with backoff, so a booking never waits for a calendar server
 * and never fails because of one.
 *
 * The job does not replay what happened but brings the calendars to the appointment's
 * current state: wanted is one event in each receiving calendar of the appointment's coach
 * while the appointment is booked (not a hold, not cancelled), none otherwise. Whatever was
 * written elsewhere (a previous coach's or a previously chosen calendar) is deleted. So jobs
 * may run late, twice or out of order and the outcome is the same.
 */
import { inTransaction } from '../../db/transaction';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/raw-rows';
import {
  appointmentCalendarSequences,
  appointments,
  calendarConnections,
  calendarWrittenEvents,
  clients,
  connectedCalendars,
} from '../../db/schema/index';
import type { JobDefinition, JobQueue } from '../../jobs/queue';
import { CalDavError, openCalDav, type CalDavSession } from './caldav';
import { buildWrittenEvent, objectUrl } from './event-ics';
import { openPassword } from './password';

export const WRITE_APPOINTMENT_JOB = 'write-calendar-appointment';

export interface WriteJobData {
  appointmentId: string;
}

type WriteConfig = Pick<
  Config,
  'WEBHOOK_SECRET_KEY' | 'WEBHOOK_SECRET_KEY_PREVIOUS' | 'PUBLIC_URL'
>;

/**
 * Queues the write of one appointment, in the caller's transaction, when there is anything
 * to do: its coach has a receiving calendar, or it was written somewhere before.
 */
export async function queueAppointmentWrite(
  tx: Db | Tx,
  jobs: JobQueue,
  appointmentId: string,
): Promise<boolean> {
  const [row] = rowsOf<{ receiving: boolean; written: boolean }>(
    await tx.execute(sql`
      SELECT EXISTS (
               SELECT 1 FROM ${connectedCalendars}
               JOIN ${calendarConnections}
                 ON ${calendarConnections.id} = ${connectedCalendars.connectionId}
               JOIN ${appointments} ON ${appointments.coachId} = ${calendarConnections.coachId}
               WHERE ${appointments.id} = ${appointmentId} AND ${connectedCalendars.receives}
             ) AS receiving,
             EXISTS (
               SELECT 1 FROM ${calendarWrittenEvents}
               WHERE ${calendarWrittenEvents.appointmentId} = ${appointmentId}
             ) AS written`),
  );
  if (!row?.receiving && !row?.written) return false;
  await jobs.send<WriteJobData>(tx, WRITE_APPOINTMENT_JOB, { appointmentId });
  return true;
}

/**
 * After a coach chose another receiving calendar or changed what the events show: rewrites
 * the coach's upcoming appointments, and moves those written by this connection before.
 */
export async function queueCoachRewrite(
  tx: Db | Tx,
  jobs: JobQueue,
  coachId: string,
  connectionId: string,
  now: Date,
): Promise<number> {
  const upcoming = await tx
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.coachId, coachId),
        isNull(appointments.cancelledAt),
        eq(appointments.isProvisional, false),
        gt(appointments.endDate, now.toISOString()),
      ),
    );
  const written = await tx
    .select({ id: calendarWrittenEvents.appointmentId })
    .from(calendarWrittenEvents)
    .innerJoin(connectedCalendars, eq(connectedCalendars.id, calendarWrittenEvents.calendarId))
    .where(eq(connectedCalendars.connectionId, connectionId));
  const ids = new Set([...upcoming, ...written].map((r) => r.id));
  for (const appointmentId of ids) {
    await jobs.send<WriteJobData>(tx, WRITE_APPOINTMENT_JOB, { appointmentId });
  }
  return ids.size;
}

interface Target {
  calendarId: string;
  calendarUrl: string;
  connection: typeof calendarConnections.$inferSelect;
}

async function receivingCalendarsOf(tx: Tx, coachId: string): Promise<Target[]> {
  const rows = await tx
    .select({ calendar: connectedCalendars, connection: calendarConnections })
    .from(connectedCalendars)
    .innerJoin(calendarConnections, eq(calendarConnections.id, connectedCalendars.connectionId))
    .where(and(eq(calendarConnections.coachId, coachId), eq(connectedCalendars.receives, true)));
  return rows.map((r) => ({
    calendarId: r.calendar.id,
    calendarUrl: r.calendar.url,
    connection: r.connection,
  }));
}

export interface WriteResult {
  put: number;
  deleted: number;
  /** Connections whose server refused or did not answer (the job is tried again). */
  failed: number;
}

/**
 * Brings every calendar to the appointment's current state (see above). One run at a time
 * per appointment (an advisory lock), so two runs never create the object twice.
 */
export async function writeAppointment(
  db: Db,
  config: WriteConfig,
  appointmentId: string,
  now: Date,
): Promise<WriteResult> {
  const result: WriteResult = { put: 0, deleted: 0, failed: 0 };
  const errors = new Map<string, string | null>();
  await inTransaction(db, async (tx) => {
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`calendar-write:${appointmentId}`}, 0))`,
    );
    const [found] = await tx
      .select({
        appointment: appointments,
        clientFirstName: clients.firstName,
        sequence: appointmentCalendarSequences.sequence,
      })
      .from(appointments)
      .innerJoin(clients, eq(clients.id, appointments.clientId))
      .leftJoin(
        appointmentCalendarSequences,
        eq(appointmentCalendarSequences.appointmentId, appointments.id),
      )
      .where(eq(appointments.id, appointmentId));
    const a = found?.appointment;
    const wanted =
      a && !a.cancelledAt && !a.isProvisional ? await receivingCalendarsOf(tx, a.coachId) : [];
    const written = await tx
      .select({
        row: calendarWrittenEvents,
        calendar: connectedCalendars,
        connection: calendarConnections,
      })
      .from(calendarWrittenEvents)
      .innerJoin(connectedCalendars, eq(connectedCalendars.id, calendarWrittenEvents.calendarId))
      .innerJoin(calendarConnections, eq(calendarConnections.id, connectedCalendars.connectionId))
      .where(eq(calendarWrittenEvents.appointmentId, appointmentId));

    // One sign-in per connection; a connection that fails is noted and skipped.
    const sessions = new Map<string, Promise<CalDavSession>>();
    const sessionOf = (connection: typeof calendarConnections.$inferSelect) => {
      let session = sessions.get(connection.id);
      if (!session) {
        session = openCalDav({
          serverUrl: connection.serverUrl,
          username: connection.username,
          password: openPassword(config, connection.coachId, connection.sealedPassword),
        });
        sessions.set(connection.id, session);
      }
      return session;
    };
    const attempt = async (connectionId: string, work: () => Promise<void>) => {
      if (errors.get(connectionId)) return;
      try {
        await work();
        if (!errors.has(connectionId)) errors.set(connectionId, null);
      } catch (error) {
        errors.set(connectionId, error instanceof CalDavError ? error.code : 'calendar_failed');
        result.failed++;
      }
    };

    const wantedIds = new Set(wanted.map((w) => w.calendarId));
    for (const { row, calendar, connection } of written) {
      if (wantedIds.has(row.calendarId)) continue;
      await attempt(connection.id, async () => {
        const session = await sessionOf(connection);
        const url = new URL(row.href, calendar.url).href;
        // Our own object: a copy the coach changed in their calendar goes as well.
        if ((await session.remove(url, row.etag ?? undefined)) === 'changed') {
          await session.remove(url, undefined);
        }
        await tx
          .delete(calendarWrittenEvents)
          .where(
            and(
              eq(calendarWrittenEvents.appointmentId, appointmentId),
              eq(calendarWrittenEvents.calendarId, row.calendarId),
            ),
          );
        result.deleted++;
      });
    }

    if (a && wanted.length) {
      const base = config.PUBLIC_URL.replace(/\/+$/, '');
      for (const target of wanted) {
        const data = buildWrittenEvent(
          {
            appointmentId,
            sequence: found.sequence ?? 0,
            start: a.startDate,
            end: a.endDate,
            clientFirstName: target.connection.shareClientFirstName ? found.clientFirstName : null,
            link: `${base}/coach/meeting/${a.meetingCodeCoach}`,
            externalMeetingUrl: a.externalMeetingUrl,
            stamp: now,
          },
          config.PUBLIC_URL,
        );
        const before = written.find((w) => w.row.calendarId === target.calendarId)?.row;
        await attempt(target.connection.id, async () => {
          const session = await sessionOf(target.connection);
          const url = before
            ? new URL(before.href, target.calendarUrl).href
            : objectUrl(target.calendarUrl, appointmentId, config.PUBLIC_URL);
          // Replace the version we wrote; if the coach changed the copy (or an earlier try
          // wrote it without recording), the appointment as booked wins.
          let outcome = await session.put(url, data, before ? (before.etag ?? undefined) : null);
          if (!outcome.ok) outcome = await session.put(url, data, undefined);
          if (!outcome.ok) throw new Error('calendar_write_conflict');
          const values = {
            appointmentId,
            calendarId: target.calendarId,
            href: new URL(url).pathname,
            etag: outcome.etag,
            writtenAt: now.toISOString(),
          };
          await tx
            .insert(calendarWrittenEvents)
            .values(values)
            .onConflictDoUpdate({
              target: [calendarWrittenEvents.appointmentId, calendarWrittenEvents.calendarId],
              set: { href: values.href, etag: values.etag, writtenAt: values.writtenAt },
            });
          result.put++;
        });
      }
    }
  });
  // The connection's state shows the last write's outcome; the sync's own state is separate.
  for (const [connectionId, code] of errors) {
    await db
      .update(calendarConnections)
      .set({ writeErrorCode: code })
      .where(eq(calendarConnections.id, connectionId));
  }
  return result;
}

/** The write job: tried again with backoff over about a day while a server refuses or is away. */
export function writebackJobs({ db, config }: { db: Db; config: WriteConfig }): JobDefinition[] {
  return [
    {
      name: WRITE_APPOINTMENT_JOB,
      queue: { retryLimit: 10, retryDelay: 60, retryBackoff: true },
      // A new receiving calendar queues every upcoming appointment at once; three writes at a
      // time let a booking made meanwhile arrive soon. Each holds a pool connection (its lock)
      // while the calendar server answers, so not more.
      work: { batchSize: 3, concurrency: 1 },
      async run(job, context) {
        const outcome = await writeAppointment(db, config, job.data.appointmentId, context.now);
        if (outcome.failed)
          throw new Error(`calendar write failed for ${outcome.failed} calendar(s)`);
        return outcome;
      },
    } satisfies JobDefinition<WriteJobData> as JobDefinition,
  ];
}
