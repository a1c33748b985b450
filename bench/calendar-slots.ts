/**
 * Connected calendars in the slot figures (`BENCH_ONLY=slots.calendars npm run bench`), on the
 * benchmark database with the scheduling data (bench/scheduling.ts).
 *
 * 1. Slots with calendars: every one of the 50 coaches connects one blocking calendar whose
 *    kept copy holds 2,000 busy times over the sync's horizon (a day back to 400 days ahead):
 *    1,430 single events (every 60th all-day) and 10 weekly series of 57 occurrences each.
 *    The rows go straight into the tables the sync writes (SQL, as a completed sync leaves
 *    them, schedule_version raised); the slot query reads that copy. The same slot request is
 *    measured with and without the calendars in turns (the connections are dropped and
 *    written again between turns, so both see the same minutes of the shared machine), in two
 *    ways: as a picker asks (one URL, compact form: the answer mostly comes from the slot
 *    cache after its fingerprint read) and computed (every request a window of its own, so
 *    each one expands availability, appointments and busy times: the cost the calendars add).
 * 2. Sync: one such calendar in a real Radicale (tests/support/radicale.ts), uploaded in one
 *    PUT of the whole calendar, then the background sync of the app (syncConnection) reads it
 *    into the database: its time and the rows it wrote (its own count and PostgreSQL's
 *    statistics); then a second sync with nothing changed, which must write nothing.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { DEV_WEBHOOK_SECRET_KEY } from '../server/config';
import { connectPostgres } from '../server/db/client';
import { sealPassword, syncConnection } from '../server/features/calendars/index';
import { startRadicale } from '../tests/support/radicale';
import { loadSlice, round, summarize, WARMUP, type Slice } from './common';

export const CALENDAR_SIZES = {
  singleEvents: 1_430,
  weeklySeries: 10,
  weeksPerSeries: 57,
  /** Busy rows per coach: singles plus every occurrence of the series. */
  busyPerCoach: 1_430 + 10 * 57,
  horizonDays: 400,
} as const;

const TURNS = 3;
const TARGET_RATIO = 1.5;

/**
 * Day `j`'s single event of coach `n`, the same in SQL (kept rows) and in iCalendar (the
 * Radicale calendar): spread over the horizon, 07:00–18:45 Berlin, 30–120 minutes, every
 * 60th all day. Series `k`: weekly from next week's Monday + k % 5 days, 60 minutes.
 */
const singlesSql = (n: string) => `
  SELECT j,
         (now() AT TIME ZONE 'Europe/Berlin')::date + (j * ${CALENDAR_SIZES.horizonDays} / ${CALENDAR_SIZES.singleEvents}) AS day,
         7 + (j * 7 + ${n}) % 12 AS hour, ((j * 13 + ${n}) % 4) * 15 AS minute,
         (ARRAY[30, 60, 90, 120])[1 + (j * 5 + ${n}) % 4] AS minutes,
         j % 60 = 7 AS all_day
    FROM generate_series(0, ${CALENDAR_SIZES.singleEvents - 1}) j`;

/** Connects every coach's calendar and keeps its busy times, as a finished sync leaves them. */
export async function connectCalendars(client: pg.Client) {
  const t = performance.now();
  await client.query(`
    BEGIN;
    INSERT INTO calendar_connections (coach_id, server_url, username, sealed_password, status, last_synced_at, last_attempt_at)
    SELECT id, 'https://caldav.bench.example/', 'bench-' || id, 'sealed', 'ok', now(), now() FROM coaches;
    INSERT INTO connected_calendars (connection_id, url, display_name, blocks, sync_token)
    SELECT id, 'https://caldav.bench.example/' || coach_id || '/privat/', 'Privat', true, 'token-1'
      FROM calendar_connections;
    CREATE TEMP TABLE bench_calendars ON COMMIT DROP AS
    SELECT cc.id AS calendar_id, cn.coach_id, (row_number() OVER (ORDER BY cn.coach_id))::int AS n
      FROM connected_calendars cc JOIN calendar_connections cn ON cn.id = cc.connection_id;
    INSERT INTO calendar_busy_times (calendar_id, coach_id, href, start_date, end_date, all_day)
    SELECT c.calendar_id, c.coach_id, '/privat/ev-' || s.j || '.ics',
           CASE WHEN s.all_day THEN s.day::timestamp AT TIME ZONE 'Europe/Berlin'
                ELSE (s.day + make_time(s.hour, s.minute, 0)) AT TIME ZONE 'Europe/Berlin' END,
           CASE WHEN s.all_day THEN (s.day + 1)::timestamp AT TIME ZONE 'Europe/Berlin'
                ELSE (s.day + make_time(s.hour, s.minute, 0)) AT TIME ZONE 'Europe/Berlin'
                     + s.minutes * interval '1 minute' END,
           s.all_day
      FROM bench_calendars c, LATERAL (${singlesSql('c.n')}) s;
    INSERT INTO calendar_busy_times (calendar_id, coach_id, href, start_date, end_date, all_day)
    SELECT c.calendar_id, c.coach_id, '/privat/series-' || k || '.ics',
           (d + make_time(8 + (k * 3 + c.n) % 10, 0, 0)) AT TIME ZONE 'Europe/Berlin',
           (d + make_time(9 + (k * 3 + c.n) % 10, 0, 0)) AT TIME ZONE 'Europe/Berlin',
           false
      FROM bench_calendars c, generate_series(0, ${CALENDAR_SIZES.weeklySeries - 1}) k,
           LATERAL (SELECT date_trunc('week', now() AT TIME ZONE 'Europe/Berlin')::date + 7 * w + k % 5 AS d
                      FROM generate_series(1, ${CALENDAR_SIZES.weeksPerSeries}) w) o;
    INSERT INTO calendar_objects (calendar_id, href, etag, expanded_until)
    SELECT DISTINCT calendar_id, href, '"' || md5(href) || '"', now() + interval '${CALENDAR_SIZES.horizonDays} days'
      FROM calendar_busy_times;
    UPDATE coaches SET schedule_version = schedule_version + 1;
    COMMIT;
  `);
  await settle(client);
  const { rows } = await client.query<{ n: string; coaches: string }>(
    'SELECT count(*) AS n, count(DISTINCT coach_id) AS coaches FROM calendar_busy_times',
  );
  return {
    ms: Math.round(performance.now() - t),
    busyRows: Number(rows[0]!.n),
    coaches: Number(rows[0]!.coaches),
  };
}

/** Disconnects every calendar (the cascade removes the kept copy), as disconnecting does. */
export async function disconnectCalendars(client: pg.Client) {
  await client.query(`
    BEGIN;
    DELETE FROM calendar_connections;
    UPDATE coaches SET schedule_version = schedule_version + 1;
    COMMIT;`);
  await settle(client);
}

/**
 * Every turn deletes and writes 100,000 busy rows, far more churn than syncs cause; without a
 * vacuum each turn's reads would also wade through the previous turns' dead rows, which
 * autovacuum clears in a steady state.
 */
async function settle(client: pg.Client) {
  await client.query(
    'VACUUM (ANALYZE) calendar_connections, connected_calendars, calendar_busy_times, calendar_objects',
  );
}

/** A window of its own per request (a minute later each time), so none comes from the cache. */
function computedPaths(basePath: string, windowStart: string, windowEnd: string) {
  let n = 0;
  return () => {
    const shift = (n++ % 1_000) * 60_000;
    const q = new URLSearchParams({
      startDate: new Date(Date.parse(windowStart) + shift).toISOString(),
      endDate: new Date(Date.parse(windowEnd) + shift).toISOString(),
      duration: '30',
      form: 'compact',
    });
    return `${basePath}?${q.toString()}`;
  };
}

/** Slots of the pooled calendar with and without connected calendars, in turns. */
export async function calendarSlots(
  appUrl: string,
  headers: Record<string, string>,
  dbUrl: string,
  window: { start: string; end: string },
  secondsPerTurn: number,
  log: (...args: unknown[]) => void,
) {
  const basePath = '/api/client/initial_appointment_slots';
  const picker = `${appUrl}${basePath}?${new URLSearchParams({
    startDate: window.start,
    endDate: window.end,
    duration: '30',
    form: 'compact',
  }).toString()}`;
  const computed = computedPaths(basePath, window.start, window.end);
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const slices = {
    without: { picker: [] as Slice[], computed: [] as Slice[] },
    with: { picker: [] as Slice[], computed: [] as Slice[] },
  };
  const probes: Record<string, { status: number; slots: number; bytes: number }> = {};
  const probe = async (name: string) => {
    const response = await fetch(picker, { headers });
    const text = await response.text();
    const body = JSON.parse(text) as { days?: Array<{ coaches: Array<{ starts: number[] }> }> };
    probes[name] = {
      status: response.status,
      slots: (body.days ?? []).reduce(
        (n, d) => n + d.coaches.reduce((m, c) => m + c.starts.length, 0),
        0,
      ),
      bytes: Buffer.byteLength(text),
    };
  };
  const connects: Array<Awaited<ReturnType<typeof connectCalendars>>> = [];
  await disconnectCalendars(client);
  await probe('without');
  await loadSlice(picker, headers, WARMUP);
  await loadSlice(appUrl, headers, WARMUP, computed);
  // After every change the page's first visitor computes the answer; the picker's measurement
  // starts after that one request (20 at once on a cold cache would all compute it).
  const firstVisitor = () => fetch(picker, { headers }).then((r) => r.text());
  for (let turn = 0; turn < TURNS; turn++) {
    await firstVisitor();
    slices.without.picker.push(await loadSlice(picker, headers, secondsPerTurn));
    slices.without.computed.push(await loadSlice(appUrl, headers, secondsPerTurn, computed));
    connects.push(await connectCalendars(client));
    if (turn === 0) {
      await probe('with');
      // The first computation with the new rows (plans, caches) is not measured.
      await loadSlice(appUrl, headers, WARMUP, computed);
    }
    await firstVisitor();
    slices.with.picker.push(await loadSlice(picker, headers, secondsPerTurn));
    slices.with.computed.push(await loadSlice(appUrl, headers, secondsPerTurn, computed));
    if (turn < TURNS - 1) await disconnectCalendars(client);
    log(`slots.calendars: turn ${turn + 1} of ${TURNS} done`);
  }
  // The kept copy stays for an EXPLAIN with BENCH_KEEP_DB=1.
  await client.end();
  const figures = {
    without: {
      picker: summarize(slices.without.picker),
      computed: summarize(slices.without.computed),
    },
    with: { picker: summarize(slices.with.picker), computed: summarize(slices.with.computed) },
  };
  const ratio = (kind: 'picker' | 'computed') =>
    round(figures.with[kind].latencyMs.p95 / figures.without[kind].latencyMs.p95, 2);
  return {
    description:
      'GET /api/client/initial_appointment_slots, 28 days, 50 coaches, form=compact; ' +
      `with: each coach a blocking calendar of ${CALENDAR_SIZES.busyPerCoach} kept busy times ` +
      `(${CALENDAR_SIZES.singleEvents} single, ${CALENDAR_SIZES.weeklySeries} weekly series × ${CALENDAR_SIZES.weeksPerSeries}); ` +
      `${TURNS} turns of ${secondsPerTurn} s each, without and with alternating`,
    sizes: CALENDAR_SIZES,
    connect: connects,
    probes,
    ...figures,
    p95Ratio: { picker: ratio('picker'), computed: ratio('computed') },
    pass: {
      picker: ratio('picker') <= TARGET_RATIO,
      computed: ratio('computed') <= TARGET_RATIO,
    },
  };
}

// ------------------------------------------------------------------------------------------
// One calendar through the real sync.

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const dateStamp = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');

/** The Radicale calendar: the same shape as the kept rows above (UTC times, close enough). */
export function benchCalendarIcs(now: number): { ics: string; objects: number } {
  const DAY = 86_400_000;
  const today = Date.UTC(
    new Date(now).getUTCFullYear(),
    new Date(now).getUTCMonth(),
    new Date(now).getUTCDate(),
  );
  const events: string[] = [];
  for (let j = 0; j < CALENDAR_SIZES.singleEvents; j++) {
    const day =
      today + Math.floor((j * CALENDAR_SIZES.horizonDays) / CALENDAR_SIZES.singleEvents) * DAY;
    const uid = `bench-ev-${j}@bench.example`;
    if (j % 60 === 7) {
      events.push(
        [
          'BEGIN:VEVENT',
          `UID:${uid}`,
          `DTSTAMP:${stamp(now)}`,
          `DTSTART;VALUE=DATE:${dateStamp(day)}`,
          `DTEND;VALUE=DATE:${dateStamp(day + DAY)}`,
          'SUMMARY:Urlaub',
          'END:VEVENT',
        ].join('\r\n'),
      );
      continue;
    }
    const start = day + ((6 + ((j * 7) % 12)) * 60 + ((j * 13) % 4) * 15) * 60_000;
    const minutes = [30, 60, 90, 120][(j * 5) % 4]!;
    events.push(
      [
        'BEGIN:VEVENT',
        `UID:${uid}`,
        `DTSTAMP:${stamp(now)}`,
        `DTSTART:${stamp(start)}`,
        `DTEND:${stamp(start + minutes * 60_000)}`,
        'SUMMARY:Privat',
        'END:VEVENT',
      ].join('\r\n'),
    );
  }
  const monday = today + ((8 - new Date(today).getUTCDay()) % 7 || 7) * DAY;
  for (let k = 0; k < CALENDAR_SIZES.weeklySeries; k++) {
    const start = monday + (k % 5) * DAY + (7 + ((k * 3) % 10)) * 3_600_000;
    events.push(
      [
        'BEGIN:VEVENT',
        `UID:bench-series-${k}@bench.example`,
        `DTSTAMP:${stamp(now)}`,
        `DTSTART:${stamp(start)}`,
        `DTEND:${stamp(start + 3_600_000)}`,
        `RRULE:FREQ=WEEKLY;COUNT=${CALENDAR_SIZES.weeksPerSeries}`,
        'SUMMARY:Sport',
        'END:VEVENT',
      ].join('\r\n'),
    );
  }
  return {
    ics: `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Sprechstunde bench//DE\r\nX-WR-CALNAME:Privat\r\n${events.join('\r\n')}\r\nEND:VCALENDAR\r\n`,
    objects: events.length,
  };
}

const CALENDAR_TABLES = ['calendar_busy_times', 'calendar_objects', 'connected_calendars'];

/** Rows inserted, updated and deleted in the calendar tables and coaches, per PostgreSQL. */
async function tableWrites(client: pg.Client) {
  // Backends report their counts at most once a second after a transaction.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const { rows } = await client.query<{ relname: string; n: string }>(
    `SELECT relname, (n_tup_ins + n_tup_upd + n_tup_del)::text AS n FROM pg_stat_user_tables
      WHERE relname = ANY($1::text[])`,
    [[...CALENDAR_TABLES, 'calendar_connections', 'coaches']],
  );
  return Object.fromEntries(rows.map((r) => [r.relname, Number(r.n)]));
}

const diff = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(Object.keys(after).map((k) => [k, after[k]! - (before[k] ?? 0)]));

/** A full background sync of one calendar from a real Radicale, then one with nothing changed. */
export async function calendarSync(dbUrl: string, log: (...args: unknown[]) => void) {
  const user = { name: 'coach', password: `pw-${randomUUID()}` };
  const radicale = await startRadicale([user]);
  const admin = new pg.Client({ connectionString: dbUrl });
  await admin.connect();
  const database = connectPostgres(dbUrl, 4);
  try {
    const now = Date.now();
    const { ics, objects } = benchCalendarIcs(now);
    const calendarUrl = await radicale.makeCalendar(user, 'privat', 'Privat');
    const t = performance.now();
    // One PUT of the whole calendar: Radicale stores each component (by UID) as an object.
    const upload = await fetch(calendarUrl, {
      method: 'PUT',
      headers: {
        authorization: `Basic ${Buffer.from(`${user.name}:${user.password}`).toString('base64')}`,
        'content-type': 'text/calendar; charset=utf-8',
      },
      body: ics,
    });
    if (!upload.ok) throw new Error(`Radicale refused the calendar: ${upload.status}`);
    const uploadMs = Math.round(performance.now() - t);
    log(`calendar.sync: ${objects} objects uploaded to Radicale in one PUT, ${uploadMs} ms`);

    // Radicale builds its item cache on the first read of a new calendar; on a loaded machine
    // that read outlasted the sync's 15 s request limit. One GET does it before the sync.
    const listed = (await radicale.listEvents(calendarUrl, user)).length;
    if (listed !== objects) throw new Error(`Radicale lists ${listed} of ${objects} objects`);
    const config = {
      WEBHOOK_SECRET_KEY: DEV_WEBHOOK_SECRET_KEY,
      PUBLIC_URL: 'http://localhost:3000',
      // Radicale runs on 127.0.0.1.
      CALENDAR_ALLOW_PRIVATE_SERVERS: true,
    };
    const { rows: coachRows } = await admin.query<{ id: string }>(
      'SELECT id FROM coaches ORDER BY email LIMIT 1',
    );
    const coachId = coachRows[0]!.id;
    await admin.query('DELETE FROM calendar_connections WHERE coach_id = $1', [coachId]);
    const { rows } = await admin.query<{ id: string }>(
      `INSERT INTO calendar_connections (coach_id, server_url, username, sealed_password)
       VALUES ($1, $2, $3, $4) RETURNING id`,
      [coachId, `${radicale.url}/`, user.name, sealPassword(config, coachId, user.password)],
    );
    const connectionId = rows[0]!.id;
    // Connecting: discovery finds the calendar; the coach marks it as blocking.
    // Radicale reads a freshly uploaded calendar slowly the first time (it builds its item
    // cache): a timed-out discovery is tried again, as the sync job's retries would.
    let discovery: Awaited<ReturnType<typeof syncConnection>> = null;
    for (let attempt = 0; attempt < 3 && !discovery; attempt++) {
      discovery = await syncConnection(database.db, config, connectionId, new Date(now));
    }
    const marked = await admin.query(
      'UPDATE connected_calendars SET blocks = true WHERE connection_id = $1',
      [connectionId],
    );
    if (marked.rowCount !== 1) throw new Error(`discovery found ${marked.rowCount} calendars`);

    const run = async () => {
      const before = await tableWrites(admin);
      const started = performance.now();
      const result = await syncConnection(database.db, config, connectionId, new Date(now));
      const ms = Math.round(performance.now() - started);
      const written = diff(await tableWrites(admin), before);
      const { rows: state } = await admin.query<{ status: string; error_code: string | null }>(
        'SELECT status, error_code FROM calendar_connections WHERE id = $1',
        [connectionId],
      );
      return { ms, result, connection: state[0], postgresRowsWritten: written };
    };
    const full = await run();
    const unchanged = await run();
    const { rows: kept } = await admin.query<{ busy: string; objects: string }>(
      `SELECT (SELECT count(*) FROM calendar_busy_times WHERE coach_id = $1)::text AS busy,
              (SELECT count(*) FROM calendar_objects o JOIN connected_calendars c ON c.id = o.calendar_id
                WHERE c.connection_id = $2)::text AS objects`,
      [coachId, connectionId],
    );
    // The connection's own row records every sync's time (the profile shows it); the kept
    // copy and the coaches' schedule_version are what "writes nothing" is about.
    const keptCopyWrites = (w: Record<string, number>) =>
      [...CALENDAR_TABLES, 'coaches'].reduce((n, table) => n + (w[table] ?? 0), 0);
    return {
      description:
        `one Radicale calendar of ${objects} objects (${CALENDAR_SIZES.singleEvents} single events, ` +
        `every 60th all-day; ${CALENDAR_SIZES.weeklySeries} weekly series of ` +
        `${CALENDAR_SIZES.weeksPerSeries}) synced by syncConnection into the database`,
      radicale: { objects, uploadMs },
      discovery,
      full,
      unchanged,
      kept: { busyTimes: Number(kept[0]!.busy), objects: Number(kept[0]!.objects) },
      pass: {
        unchangedWritesNothing:
          unchanged.result?.rowsWritten === 0 &&
          keptCopyWrites(unchanged.postgresRowsWritten) === 0,
      },
    };
  } finally {
    await database.close();
    await admin.end();
    await radicale.close();
  }
}
