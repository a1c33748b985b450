import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, ownedBy, ts, updatedAt, uuidId } from './columns';
import { appointments, coaches } from './core';

/**
 * A coach's CalDAV account. The app password is sealed (AES-GCM, the webhook secrets' key)
 * and never leaves the server. `status` is what the last sync found; `errorCode` says why it
 * failed (the UI words it in German).
 */
export const calendarConnections = pgTable(
  'calendar_connections',
  {
    id: uuidId(),
    coachId: ownedBy('coach_id', () => coaches.id),
    serverUrl: text('server_url').notNull(),
    username: text('username').notNull(),
    sealedPassword: text('sealed_password').notNull(),
    /** Whether all-day events (holidays, "home office") take the coach's whole day. */
    allDayBlocks: boolean('all_day_blocks').notNull().default(true),
    /** Whether appointments written into the receiving calendar name the client's first name. */
    shareClientFirstName: boolean('share_client_first_name').notNull().default(false),
    status: text('status', { enum: ['pending', 'ok', 'failing'] })
      .notNull()
      .default('pending'),
    errorCode: text('error_code'),
    lastSyncedAt: ts('last_synced_at'),
    lastAttemptAt: ts('last_attempt_at'),
    /** Why the last write of an appointment failed (retried); null after a successful one. */
    writeErrorCode: text('write_error_code'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('calendar_connections_coach_idx').on(t.coachId),
    check('calendar_connections_status_check', sql`${t.status} IN ('pending', 'ok', 'failing')`),
    check('calendar_connections_url_check', sql`${t.serverUrl} ~ '^https?://'`),
  ],
);

/**
 * One calendar found behind a connection. `ctag`/`syncToken` are the server's collection
 * version from the last complete sync: unchanged means nothing to read or write.
 */
export const connectedCalendars = pgTable(
  'connected_calendars',
  {
    id: uuidId(),
    connectionId: ownedBy('connection_id', () => calendarConnections.id),
    url: text('url').notNull(),
    displayName: text('display_name').notNull(),
    blocks: boolean('blocks').notNull().default(false),
    receives: boolean('receives').notNull().default(false),
    ctag: text('ctag'),
    syncToken: text('sync_token'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('connected_calendars_url_key').on(t.connectionId, t.url),
    uniqueIndex('connected_calendars_receiving_key')
      .on(t.connectionId)
      .where(sql`${t.receives}`),
  ],
);

/**
 * An event object of a blocking calendar as last read (its ETag), and until when its busy
 * times are expanded: no title, no description, no attendees are kept.
 */
export const calendarObjects = pgTable(
  'calendar_objects',
  {
    calendarId: ownedBy('calendar_id', () => connectedCalendars.id),
    href: text('href').notNull(),
    etag: text('etag').notNull(),
    expandedUntil: ts('expanded_until').notNull(),
  },
  (t) => [uniqueIndex('calendar_objects_key').on(t.calendarId, t.href)],
);

/** The kept copy the slot computation reads: busy intervals, nothing about what they are. */
export const calendarBusyTimes = pgTable(
  'calendar_busy_times',
  {
    id: uuidId(),
    calendarId: ownedBy('calendar_id', () => connectedCalendars.id),
    coachId: ownedBy('coach_id', () => coaches.id),
    href: text('href').notNull(),
    startDate: ts('start_date').notNull(),
    endDate: ts('end_date').notNull(),
    allDay: boolean('all_day').notNull().default(false),
  },
  (t) => [
    index('calendar_busy_times_coach_idx').on(t.coachId, t.startDate),
    // The slot statement asks for the busy times overlapping a window. A busy time has no
    // longest length (an all-day or multi-day event), so the btree above can bound only the
    // start's upper end and reads everything kept from today on; the range index reads only
    // the overlapping rows (btree_gist for the coach).
    index('calendar_busy_times_coach_range_idx').using(
      'gist',
      t.coachId,
      sql`tstzrange(${t.startDate}, ${t.endDate})`,
    ),
    index('calendar_busy_times_object_idx').on(t.calendarId, t.href),
    check('calendar_busy_times_order_check', sql`${t.endDate} > ${t.startDate}`),
  ],
);

/**
 * An appointment as written into a receiving calendar: where (href) and in which version
 * (ETag), so a move replaces that very object and a cancellation removes it. Goes with the
 * calendar (a disconnect leaves the written events in the coach's calendar, untracked).
 */
export const calendarWrittenEvents = pgTable(
  'calendar_written_events',
  {
    appointmentId: ownedBy('appointment_id', () => appointments.id),
    calendarId: ownedBy('calendar_id', () => connectedCalendars.id),
    href: text('href').notNull(),
    etag: text('etag'),
    writtenAt: ts('written_at').notNull(),
    /** What was written (writeback.ts contentHashOf): a reconcile rewrites what differs. */
    contentHash: text('content_hash'),
  },
  (t) => [
    primaryKey({ columns: [t.appointmentId, t.calendarId] }),
    index('calendar_written_events_calendar_idx').on(t.calendarId),
  ],
);
