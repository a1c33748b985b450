/**
 * The background sync of a connection's busy times into the kept copy the slots are computed
 * from. Nothing here runs inside a booking: a slow or absent calendar server only makes the
 * copy older (the connection's state says how old), it never blocks or fails a booking.
 *
 * Writes only what changed: a calendar whose collection version (sync token or CTag) is what
 * the last complete sync saw is not read further; in a changed one, only objects with a new
 * ETag are parsed and their busy rows replaced. The coach's schedule_version is raised with
 * the rows, so the slot cache recomputes exactly when the busy times changed.
 */
import { inTransaction } from '../../db/transaction';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import {
  calendarBusyTimes,
  calendarConnections,
  calendarObjects,
  coaches,
  connectedCalendars,
} from '../../db/schema/index';
import type { JobDefinition, JobQueue } from '../../jobs/queue';
import { CalDavError, type CalDavSession, type RemoteCalendar } from './caldav';
import { notePrivateConflicts } from './conflicts';
import { busyIntervals } from './ical-busy';
import { isOwnUid } from './event-ics';
import { openConnection, type CalendarServerConfig } from './password';
import { writebackJobs, writebackPeriodic } from './writeback';

export const SYNC_CALENDAR_JOB = 'sync-calendar-connection';
export const SYNC_ALL_CALENDARS_JOB = 'sync-calendar-connections';

const DAY_MS = 24 * 60 * 60_000;
/** Busy times are kept from a day back to this far ahead. */
export const HORIZON_DAYS = 400;
/** A recurring object expanded less far ahead than this is read again. */
const REEXPAND_DAYS = HORIZON_DAYS / 2;
/** Rows per INSERT and hrefs per DELETE: well inside PostgreSQL's 65,535 parameters. */
const ROWS_PER_STATEMENT = 2_000;
const HREFS_PER_STATEMENT = 5_000;

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

export interface SyncResult {
  /** Rows inserted, updated or deleted in the kept copy (objects and busy times). */
  rowsWritten: number;
  calendarsRead: number;
  objectsParsed: number;
}

export const raiseScheduleVersion = (tx: Db | Tx, coachId: string) =>
  tx
    .update(coaches)
    .set({ scheduleVersion: sql`${coaches.scheduleVersion} + 1` })
    .where(eq(coaches.id, coachId));

/** Adds calendars that appeared behind the account, renames, and drops those that are gone. */
export async function applyDiscovered(
  tx: Db | Tx,
  connectionId: string,
  remote: RemoteCalendar[],
): Promise<number> {
  const known = await tx
    .select()
    .from(connectedCalendars)
    .where(eq(connectedCalendars.connectionId, connectionId));
  let written = 0;
  const remoteUrls = new Set(remote.map((c) => c.url));
  const gone = known.filter((c) => !remoteUrls.has(c.url)).map((c) => c.id);
  if (gone.length) {
    await tx.delete(connectedCalendars).where(inArray(connectedCalendars.id, gone));
    written += gone.length;
  }
  for (const calendar of remote) {
    const row = known.find((k) => k.url === calendar.url);
    if (!row) {
      await tx
        .insert(connectedCalendars)
        .values({ connectionId, url: calendar.url, displayName: calendar.displayName });
      written++;
    } else if (row.displayName !== calendar.displayName) {
      await tx
        .update(connectedCalendars)
        .set({ displayName: calendar.displayName })
        .where(eq(connectedCalendars.id, row.id));
      written++;
    }
  }
  return written;
}

async function syncCalendar(
  db: Db,
  session: CalDavSession,
  coachId: string,
  calendar: typeof connectedCalendars.$inferSelect,
  version: string | null,
  now: number,
  skipUid: (uid: string) => boolean,
): Promise<SyncResult> {
  const result: SyncResult = { rowsWritten: 0, calendarsRead: 0, objectsParsed: 0 };
  const reexpandBefore = new Date(now + REEXPAND_DAYS * DAY_MS).toISOString();
  const stale = await db
    .select({ href: calendarObjects.href })
    .from(calendarObjects)
    .where(
      and(
        eq(calendarObjects.calendarId, calendar.id),
        lt(calendarObjects.expandedUntil, reexpandBefore),
      ),
    )
    .limit(1);
  if (version !== null && version === (calendar.syncToken ?? calendar.ctag) && !stale.length) {
    return result;
  }
  result.calendarsRead = 1;
  const remote = await session.objects(calendar.url);
  const from = now - DAY_MS;
  const until = now + HORIZON_DAYS * DAY_MS;
  await inTransaction(db, async (tx) => {
    const stored = new Map(
      (
        await tx.select().from(calendarObjects).where(eq(calendarObjects.calendarId, calendar.id))
      ).map((o) => [o.href, o]),
    );
    const expandedUntil = new Date(until).toISOString();
    const remoteHrefs = new Set<string>();
    // What changed is collected first and written in one statement per kind (and chunk), so a
    // calendar of many new events costs a handful of round trips, not several per event.
    const replaced: string[] = [];
    const busy: (typeof calendarBusyTimes.$inferInsert)[] = [];
    const objects: (typeof calendarObjects.$inferInsert)[] = [];
    for (const object of remote) {
      remoteHrefs.add(object.href);
      const known = stored.get(object.href);
      if (known && known.etag === object.etag && known.expandedUntil >= reexpandBefore) continue;
      result.objectsParsed++;
      let intervals: ReturnType<typeof busyIntervals>;
      try {
        intervals = busyIntervals(object.data, from, until, skipUid);
      } catch {
        // An object that is not iCalendar blocks nothing; the others still count.
        intervals = [];
      }
      if (known) replaced.push(object.href);
      for (const i of intervals) {
        busy.push({
          calendarId: calendar.id,
          coachId,
          href: object.href,
          startDate: new Date(i.start).toISOString(),
          endDate: new Date(i.end).toISOString(),
          allDay: i.allDay,
        });
      }
      objects.push({
        calendarId: calendar.id,
        href: object.href,
        etag: object.etag,
        expandedUntil,
      });
    }
    const gone = [...stored.keys()].filter((href) => !remoteHrefs.has(href));
    // The busy rows of replaced and vanished objects go (a new object has none yet).
    for (const hrefs of chunks([...replaced, ...gone], HREFS_PER_STATEMENT)) {
      const removed = await tx
        .delete(calendarBusyTimes)
        .where(
          and(
            eq(calendarBusyTimes.calendarId, calendar.id),
            inArray(calendarBusyTimes.href, hrefs),
          ),
        )
        .returning({ id: calendarBusyTimes.id });
      result.rowsWritten += removed.length;
    }
    for (const rows of chunks(busy, ROWS_PER_STATEMENT)) {
      await tx.insert(calendarBusyTimes).values(rows);
      result.rowsWritten += rows.length;
    }
    for (const rows of chunks(objects, ROWS_PER_STATEMENT)) {
      await tx
        .insert(calendarObjects)
        .values(rows)
        .onConflictDoUpdate({
          target: [calendarObjects.calendarId, calendarObjects.href],
          set: {
            etag: sql`excluded.${sql.identifier(calendarObjects.etag.name)}`,
            expandedUntil: sql`excluded.${sql.identifier(calendarObjects.expandedUntil.name)}`,
          },
        });
      result.rowsWritten += rows.length;
    }
    for (const hrefs of chunks(gone, HREFS_PER_STATEMENT)) {
      await tx
        .delete(calendarObjects)
        .where(
          and(eq(calendarObjects.calendarId, calendar.id), inArray(calendarObjects.href, hrefs)),
        );
      result.rowsWritten += hrefs.length;
    }
    await tx
      .update(connectedCalendars)
      .set({ syncToken: version, ctag: null })
      .where(eq(connectedCalendars.id, calendar.id));
    if (result.rowsWritten) {
      // Before the coach's row: the same lock order as a booking (calendar lock, then rows).
      await notePrivateConflicts(tx, coachId, { from: new Date(now).toISOString() });
      await raiseScheduleVersion(tx, coachId);
    }
  });
  return result;
}

/**
 * Syncs one connection: discovery, then each blocking calendar. A failure is recorded on the
 * connection (status failing, the cause's code) and the kept busy times stay as they were.
 */
export async function syncConnection(
  db: Db,
  config: CalendarServerConfig,
  connectionId: string,
  now: Date,
): Promise<SyncResult | null> {
  const [connection] = await db
    .select()
    .from(calendarConnections)
    .where(eq(calendarConnections.id, connectionId));
  if (!connection) return null;
  const total: SyncResult = { rowsWritten: 0, calendarsRead: 0, objectsParsed: 0 };
  // The appointments written back (and invitations a coach imported) are appointments already.
  const skipUid = (uid: string) => isOwnUid(uid, config.PUBLIC_URL);
  let session: CalDavSession | undefined;
  try {
    session = await openConnection(config, connection);
    const remote = await session.calendars();
    total.rowsWritten += await applyDiscovered(db, connection.id, remote);
    const calendars = await db
      .select()
      .from(connectedCalendars)
      .where(
        and(
          eq(connectedCalendars.connectionId, connection.id),
          eq(connectedCalendars.blocks, true),
        ),
      );
    for (const calendar of calendars) {
      const version = remote.find((r) => r.url === calendar.url)?.version ?? null;
      const one = await syncCalendar(
        db,
        session,
        connection.coachId,
        calendar,
        version,
        now.getTime(),
        skipUid,
      );
      total.rowsWritten += one.rowsWritten;
      total.calendarsRead += one.calendarsRead;
      total.objectsParsed += one.objectsParsed;
    }
    await db
      .update(calendarConnections)
      .set({
        status: 'ok',
        errorCode: null,
        lastSyncedAt: now.toISOString(),
        lastAttemptAt: now.toISOString(),
      })
      .where(eq(calendarConnections.id, connection.id));
    return total;
  } catch (error) {
    const code = error instanceof CalDavError ? error.code : 'calendar_failed';
    await db
      .update(calendarConnections)
      .set({ status: 'failing', errorCode: code, lastAttemptAt: now.toISOString() })
      .where(eq(calendarConnections.id, connection.id));
    if (!(error instanceof CalDavError)) throw error;
    return null;
  } finally {
    session?.close();
  }
}

export interface CalendarJobDeps {
  db: Db;
  config: Config;
  jobs: () => JobQueue;
  /** The app's clock; default the queue's. */
  now?: () => Date;
}

/** The sync of one connection, and the periodic job that queues every connection's sync. */
export function calendarJobs({ db, config, jobs, now }: CalendarJobDeps): {
  definitions: JobDefinition[];
  periodic: { name: string; cron: string }[];
} {
  return {
    definitions: [
      {
        name: SYNC_CALENDAR_JOB,
        queue: { retryLimit: 2, retryDelay: 60, retryBackoff: true },
        async run(job, context) {
          const { connectionId } = job.data as { connectionId: string };
          await syncConnection(db, config, connectionId, now?.() ?? context.now);
        },
      } satisfies JobDefinition<{ connectionId: string }> as JobDefinition,
      ...writebackJobs({ db, config, jobs, ...(now ? { now } : {}) }),
      {
        name: SYNC_ALL_CALENDARS_JOB,
        async run() {
          const rows = await db.select({ id: calendarConnections.id }).from(calendarConnections);
          for (const row of rows) {
            await jobs().send(db, SYNC_CALENDAR_JOB, { connectionId: row.id });
          }
        },
      },
    ],
    periodic: [{ name: SYNC_ALL_CALENDARS_JOB, cron: '*/15 * * * *' }, ...writebackPeriodic],
  };
}
