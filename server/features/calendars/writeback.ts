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
 *
 * A run holds no database connection while the calendar server answers: it reads what it
 * needs, talks to the server, then records the outcome in a short transaction. There it reads
 * the appointment again; if it changed meanwhile (another run may have written the newer state
 * before this run's older one landed), the run goes again with the new state.
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { inTransaction } from '../../db/transaction';
import {
  appointmentCalendarSequences,
  appointments,
  calendarConnections,
  calendarWrittenEvents,
  clients,
  connectedCalendars,
} from '../../db/schema/index';
import type { JobDefinition, JobQueue } from '../../jobs/queue';
import { CalDavError, type CalDavSession } from './caldav';
import { selectAppointmentEvents } from './appointment-events';
import { buildWrittenEvent, objectUrl, type WrittenEvent } from './event-ics';
import { openConnection, type CalendarServerConfig } from './password';

export const WRITE_APPOINTMENT_JOB = 'write-calendar-appointment';

export interface WriteJobData {
  appointmentId: string;
}

/**
 * Whether an appointment's calendars have anything to do: its coach has a receiving calendar,
 * or it was written somewhere before. A column for the query that reads the appointment
 * anyway (the notifications'), so a coach without a calendar costs no extra round trip.
 */
export const calendarWriteWanted = (appointmentId: AnyPgColumn, coachId: AnyPgColumn) =>
  sql<boolean>`(EXISTS (
      SELECT 1 FROM ${connectedCalendars}
      JOIN ${calendarConnections} ON ${calendarConnections.id} = ${connectedCalendars.connectionId}
      WHERE ${calendarConnections.coachId} = ${coachId} AND ${connectedCalendars.receives}
    ) OR EXISTS (
      SELECT 1 FROM ${calendarWrittenEvents}
      WHERE ${calendarWrittenEvents.appointmentId} = ${appointmentId}
    ))`.mapWith(Boolean);

/**
 * Queues the write of one appointment in the caller's transaction when `wanted` (the
 * appointment's `calendarWriteWanted`, read in that transaction) says there is anything to do.
 */
export async function queueAppointmentWrite(
  tx: Db | Tx,
  jobs: JobQueue,
  appointmentId: string,
  wanted: boolean,
): Promise<boolean> {
  if (!wanted) return false;
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
    .where(and(eq(appointments.coachId, coachId), liveAfter(now)));
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

/** Booked (not cancelled, not a hold) and not over at `now`. */
const liveAfter = (now: Date): SQL =>
  sql`${appointments.cancelledAt} IS NULL AND NOT ${appointments.isProvisional}
      AND ${appointments.endDate} > ${now.toISOString()}`;

type Connection = typeof calendarConnections.$inferSelect;

interface Target {
  calendarId: string;
  calendarUrl: string;
  connection: Connection;
}

/** What a run needs to know, read in one short look at the database. */
interface Plan {
  appointment: typeof appointments.$inferSelect | null;
  sequence: number;
  clientFirstName: string | null;
  wanted: Target[];
  written: {
    row: typeof calendarWrittenEvents.$inferSelect;
    calendarUrl: string;
    connection: Connection;
  }[];
}

async function loadPlan(db: Db | Tx, appointmentId: string): Promise<Plan> {
  const [found] = await selectAppointmentEvents(db, {
    appointment: appointments,
    clientFirstName: clients.firstName,
  }).where(eq(appointments.id, appointmentId));
  const a = found?.appointment ?? null;
  const wanted =
    a && !a.cancelledAt && !a.isProvisional
      ? (
          await db
            .select({ calendar: connectedCalendars, connection: calendarConnections })
            .from(connectedCalendars)
            .innerJoin(
              calendarConnections,
              eq(calendarConnections.id, connectedCalendars.connectionId),
            )
            .where(
              and(
                eq(calendarConnections.coachId, a.coachId),
                eq(connectedCalendars.receives, true),
              ),
            )
        ).map((r) => ({
          calendarId: r.calendar.id,
          calendarUrl: r.calendar.url,
          connection: r.connection,
        }))
      : [];
  const written = (
    await db
      .select({
        row: calendarWrittenEvents,
        calendar: connectedCalendars,
        connection: calendarConnections,
      })
      .from(calendarWrittenEvents)
      .innerJoin(connectedCalendars, eq(connectedCalendars.id, calendarWrittenEvents.calendarId))
      .innerJoin(calendarConnections, eq(calendarConnections.id, connectedCalendars.connectionId))
      .where(eq(calendarWrittenEvents.appointmentId, appointmentId))
  ).map((r) => ({ row: r.row, calendarUrl: r.calendar.url, connection: r.connection }));
  return {
    appointment: a,
    sequence: found?.sequence ?? 0,
    clientFirstName: found?.clientFirstName ?? null,
    wanted,
    written,
  };
}

/** The event an appointment shows in a calendar of `connection`, without its time stamp. */
function eventOf(
  config: Pick<Config, 'PUBLIC_URL'>,
  a: typeof appointments.$inferSelect,
  sequence: number,
  clientFirstName: string | null,
  shareClientFirstName: boolean,
): Omit<WrittenEvent, 'stamp'> {
  return {
    appointmentId: a.id,
    sequence,
    start: a.startDate,
    end: a.endDate,
    clientFirstName: shareClientFirstName ? clientFirstName : null,
    link: `${config.PUBLIC_URL.replace(/\/+$/, '')}/coach/meeting/${a.meetingCodeCoach}`,
    externalMeetingUrl: a.externalMeetingUrl,
  };
}

/** What was written, kept with the row: a reconcile compares it with what is wanted now. */
export const contentHashOf = (event: Omit<WrittenEvent, 'stamp'>) =>
  createHash('sha256')
    .update(
      JSON.stringify([
        event.appointmentId,
        event.sequence,
        new Date(event.start).toISOString(),
        new Date(event.end).toISOString(),
        event.clientFirstName,
        event.link,
        event.externalMeetingUrl,
      ]),
    )
    .digest('base64url');

/** The state a plan wants, to see whether it changed while the server was being written. */
const wantedState = (config: CalendarServerConfig, plan: Plan) =>
  JSON.stringify(
    plan.appointment
      ? plan.wanted
          .map((t) => [
            t.calendarId,
            t.calendarUrl,
            contentHashOf(
              eventOf(
                config,
                plan.appointment!,
                plan.sequence,
                plan.clientFirstName,
                t.connection.shareClientFirstName,
              ),
            ),
          ])
          .sort()
      : [],
  );

export interface WriteResult {
  put: number;
  deleted: number;
  /** Connections whose server refused or did not answer (the job is tried again). */
  failed: number;
}

interface Outcome {
  puts: { calendarId: string; href: string; etag: string | null; contentHash: string }[];
  deleted: string[];
  errors: Map<string, string | null>;
  failed: number;
}

/** Talks to the calendar servers: no database connection is held meanwhile. */
async function writeServers(config: CalendarServerConfig, plan: Plan, now: Date): Promise<Outcome> {
  const outcome: Outcome = { puts: [], deleted: [], errors: new Map(), failed: 0 };
  const { errors } = outcome;
  // One sign-in per connection; a connection that fails is noted and skipped.
  const sessions = new Map<string, Promise<CalDavSession>>();
  const sessionOf = (connection: Connection) => {
    let session = sessions.get(connection.id);
    if (!session) {
      session = openConnection(config, connection);
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
      outcome.failed++;
    }
  };

  try {
    const wantedIds = new Set(plan.wanted.map((w) => w.calendarId));
    for (const { row, calendarUrl, connection } of plan.written) {
      if (wantedIds.has(row.calendarId)) continue;
      await attempt(connection.id, async () => {
        const session = await sessionOf(connection);
        const url = new URL(row.href, calendarUrl).href;
        // Our own object: a copy the coach changed in their calendar goes as well.
        if ((await session.remove(url, row.etag ?? undefined)) === 'changed') {
          await session.remove(url, undefined);
        }
        outcome.deleted.push(row.calendarId);
      });
    }

    const a = plan.appointment;
    for (const target of a ? plan.wanted : []) {
      const event = eventOf(
        config,
        a!,
        plan.sequence,
        plan.clientFirstName,
        target.connection.shareClientFirstName,
      );
      const data = buildWrittenEvent({ ...event, stamp: now }, config.PUBLIC_URL);
      const before = plan.written.find((w) => w.row.calendarId === target.calendarId)?.row;
      await attempt(target.connection.id, async () => {
        const session = await sessionOf(target.connection);
        const url = before
          ? new URL(before.href, target.calendarUrl).href
          : objectUrl(target.calendarUrl, a!.id, config.PUBLIC_URL);
        // Replace the version we wrote; if the coach changed the copy (or an earlier try
        // wrote it without recording), the appointment as booked wins.
        let put = await session.put(url, data, before ? (before.etag ?? undefined) : null);
        if (!put.ok) put = await session.put(url, data, undefined);
        if (!put.ok) throw new Error('calendar_write_conflict');
        outcome.puts.push({
          calendarId: target.calendarId,
          href: new URL(url).pathname,
          etag: put.etag,
          contentHash: contentHashOf(event),
        });
      });
    }
  } finally {
    for (const session of sessions.values()) {
      session.then((s) => s.close()).catch(() => {});
    }
  }
  return outcome;
}

/** Records what the servers did, in one short transaction; answers whether the state moved on. */
async function record(
  db: Db,
  config: CalendarServerConfig,
  appointmentId: string,
  plan: Plan,
  outcome: Outcome,
  now: Date,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    // Runs of one appointment record one at a time, each against the state it reads here.
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`calendar-write:${appointmentId}`}, 0))`,
    );
    if (outcome.deleted.length) {
      await tx
        .delete(calendarWrittenEvents)
        .where(
          and(
            eq(calendarWrittenEvents.appointmentId, appointmentId),
            inArray(calendarWrittenEvents.calendarId, outcome.deleted),
          ),
        );
    }
    for (const put of outcome.puts) {
      // Only while the calendar is still connected (a disconnect may have come meanwhile).
      await tx.execute(sql`
        INSERT INTO ${calendarWrittenEvents}
          (appointment_id, calendar_id, href, etag, written_at, content_hash)
        SELECT ${appointmentId}::uuid, ${connectedCalendars.id}, ${put.href}, ${put.etag},
               ${now.toISOString()}::timestamptz, ${put.contentHash}
          FROM ${connectedCalendars}
         WHERE ${connectedCalendars.id} = ${put.calendarId}::uuid
           AND EXISTS (SELECT 1 FROM ${appointments} WHERE ${appointments.id} = ${appointmentId}::uuid)
        ON CONFLICT (appointment_id, calendar_id) DO UPDATE
          SET href = excluded.href, etag = excluded.etag, written_at = excluded.written_at,
              content_hash = excluded.content_hash`);
    }
    // The connection's state shows the last write's outcome; the sync's own state is separate.
    for (const [connectionId, code] of outcome.errors) {
      await tx
        .update(calendarConnections)
        .set({ writeErrorCode: code })
        .where(eq(calendarConnections.id, connectionId));
    }
    const current = await loadPlan(tx, appointmentId);
    return wantedState(config, current) !== wantedState(config, plan);
  });
}

/** How often a run starts over because the appointment changed while it wrote. */
const MAX_ROUNDS = 3;

/** Brings every calendar to the appointment's current state (see above). */
export async function writeAppointment(
  db: Db,
  config: CalendarServerConfig,
  appointmentId: string,
  now: Date,
): Promise<WriteResult> {
  const result: WriteResult = { put: 0, deleted: 0, failed: 0 };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const plan = await loadPlan(db, appointmentId);
    const outcome = await writeServers(config, plan, now);
    const moved = await record(db, config, appointmentId, plan, outcome, now);
    result.put += outcome.puts.length;
    result.deleted += outcome.deleted.length;
    result.failed = outcome.failed;
    if (!moved || outcome.failed) break;
  }
  return result;
}

export const RECONCILE_WRITES_JOB = 'reconcile-calendar-writes';

/**
 * Queues the writes that are missing or out of date for upcoming appointments, in calendars
 * of connections that work (their last sync signed in): after a write's last retry failed
 * (the server was away for more than a day), nothing else would bring the calendar back to
 * the appointments. Appointments whose write is still queued or retrying are left to it.
 * Answers how many writes it queued.
 */
export async function reconcileWrites(
  db: Db,
  config: Pick<Config, 'PUBLIC_URL'>,
  jobs: JobQueue,
  now: Date,
): Promise<number> {
  const due = new Set<string>();
  // Missing or different from what is wanted now, in a receiving calendar.
  const wanted = await db
    .select({
      appointment: appointments,
      clientFirstName: clients.firstName,
      sequence: appointmentCalendarSequences.sequence,
      shareClientFirstName: calendarConnections.shareClientFirstName,
      contentHash: calendarWrittenEvents.contentHash,
    })
    .from(connectedCalendars)
    .innerJoin(calendarConnections, eq(calendarConnections.id, connectedCalendars.connectionId))
    .innerJoin(appointments, eq(appointments.coachId, calendarConnections.coachId))
    .innerJoin(clients, eq(clients.id, appointments.clientId))
    .leftJoin(
      appointmentCalendarSequences,
      eq(appointmentCalendarSequences.appointmentId, appointments.id),
    )
    .leftJoin(
      calendarWrittenEvents,
      and(
        eq(calendarWrittenEvents.appointmentId, appointments.id),
        eq(calendarWrittenEvents.calendarId, connectedCalendars.id),
      ),
    )
    .where(
      and(
        eq(connectedCalendars.receives, true),
        eq(calendarConnections.status, 'ok'),
        liveAfter(now),
      ),
    );
  for (const w of wanted) {
    const hash = contentHashOf(
      eventOf(config, w.appointment, w.sequence ?? 0, w.clientFirstName, w.shareClientFirstName),
    );
    if (w.contentHash !== hash) due.add(w.appointment.id);
  }
  // Written where it is no longer wanted: cancelled, a hold again, another coach's, or a
  // calendar that stopped receiving.
  const leftover = await db
    .select({ id: appointments.id })
    .from(calendarWrittenEvents)
    .innerJoin(connectedCalendars, eq(connectedCalendars.id, calendarWrittenEvents.calendarId))
    .innerJoin(calendarConnections, eq(calendarConnections.id, connectedCalendars.connectionId))
    .innerJoin(appointments, eq(appointments.id, calendarWrittenEvents.appointmentId))
    .where(
      and(
        eq(calendarConnections.status, 'ok'),
        sql`${appointments.endDate} > ${now.toISOString()}`,
        sql`(${appointments.cancelledAt} IS NOT NULL OR ${appointments.isProvisional}
             OR NOT ${connectedCalendars.receives}
             OR ${appointments.coachId} <> ${calendarConnections.coachId})`,
      ),
    );
  for (const { id } of leftover) due.add(id);
  if (!due.size) return 0;
  for (const job of await jobs.waiting<WriteJobData>(WRITE_APPOINTMENT_JOB)) {
    due.delete(job.data.appointmentId);
  }
  for (const appointmentId of due) {
    await jobs.send<WriteJobData>(db, WRITE_APPOINTMENT_JOB, { appointmentId });
  }
  return due.size;
}

export interface WritebackJobDeps {
  db: Db;
  config: CalendarServerConfig;
  jobs: () => JobQueue;
  /** The app's clock; default the queue's. */
  now?: () => Date;
}

/** The write job: tried again with backoff over about a day while a server refuses or is away. */
export function writebackJobs({ db, config, jobs, now }: WritebackJobDeps): JobDefinition[] {
  return [
    {
      name: WRITE_APPOINTMENT_JOB,
      queue: { retryLimit: 10, retryDelay: 60, retryBackoff: true },
      // A new receiving calendar queues every upcoming appointment at once; three writes at a
      // time let a booking made meanwhile arrive soon. A write holds no pool connection while
      // the calendar server answers.
      work: { batchSize: 3, concurrency: 1 },
      async run(job, context) {
        const outcome = await writeAppointment(
          db,
          config,
          job.data.appointmentId,
          now?.() ?? context.now,
        );
        if (outcome.failed)
          throw new Error(`calendar write failed for ${outcome.failed} calendar(s)`);
        return outcome;
      },
    } satisfies JobDefinition<WriteJobData> as JobDefinition,
    {
      name: RECONCILE_WRITES_JOB,
      async run(_job, context) {
        return { queued: await reconcileWrites(db, config, jobs(), now?.() ?? context.now) };
      },
    },
  ];
}

/** Every hour: the writes that gave up are queued again once their connection works. */
export const writebackPeriodic = [{ name: RECONCILE_WRITES_JOB, cron: '23 * * * *' }];
