/**
 * Scheduling figures (`BENCH_ONLY=slots,booking npm run bench`), on the benchmark database.
 *
 * Data (loadSchedulingData, on top of bench/load.ts):
 * - every one of the 50 coaches has a weekly availability Mon–Fri 08:00–18:00 Europe/Berlin
 *   (an open-ended RRULE), every second coach a weekly lunch blocker 12:00–13:00;
 * - 5,000 live appointments inside a 28-day window that starts on a Monday 12 weeks ahead
 *   (beyond bench/load.ts's appointments): 5 per coach and working day, 30–60 minutes, at
 *   08, 10, 13, 15 and 17 h plus 0/15/30 minutes;
 * - 500 spare clients for the booking race.
 *
 * Scenarios:
 * - slots.initialPool28d: GET /api/client/initial_appointment_slots over that window
 *   (duration 30), the pooled calendar of all 50 coaches, under autocannon like the list
 *   scenarios; beside it the floor: the one SQL statement that reads the same rows
 *   (coaches, availabilities with overrides, appointments of the window), run with the same
 *   concurrency through a pg.Pool of the app's size, and the ratio of the p95s.
 * - booking.race: 500 POST /api/appointment at once (distinct clients, each with its own
 *   Idempotency-Key like the web app's) for 20 groups of
 *   partly overlapping 60-minute slots (5 coaches × 4 groups; each group's 25 requests start
 *   at +0/15/30/45 minutes, so exactly one per group can succeed): counts of 201/409/5xx,
 *   live appointments afterwards, deadlocks reported by PostgreSQL, latency percentiles.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type pg from 'pg';
import pgModule from 'pg';
import path from 'node:path';
import { localInstant } from '../server/features/availability/index';
import { startChild, stopChild } from './servers/child';

/**
 * The race's HTTP client: node:http on keep-alive sockets (one per concurrent request),
 * lighter than fetch, so the client's own work on the shared cores weighs less in the
 * latencies. Resolves with the status, 0 on a network error.
 */
function burstClient(appUrl: string, headers: Record<string, string>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const base = new URL(appUrl);
  return {
    request(
      method: 'GET' | 'POST',
      path: string,
      body?: unknown,
      extra: Record<string, string> = {},
    ): Promise<number> {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((resolve) => {
        const req = http.request(
          {
            agent,
            host: base.hostname,
            port: base.port,
            method,
            path,
            headers: payload
              ? {
                  ...headers,
                  ...extra,
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(payload),
                }
              : { ...headers, ...extra },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
            res.on('error', () => resolve(0));
          },
        );
        req.on('error', () => resolve(0));
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

export const SCHEDULING_SIZES = {
  windowDays: 28,
  bookedInWindow: 5_000,
  raceRequests: 500,
  raceGroups: 20,
} as const;

export interface SchedulingFixtures {
  windowStart: string;
  windowEnd: string;
  raceDay: string;
  raceCoachIds: string[];
  raceClientIds: string[];
}

export async function loadSchedulingData(
  client: pg.Client,
): Promise<{ timingsMs: Record<string, number>; fixtures: SchedulingFixtures }> {
  const timingsMs: Record<string, number> = {};
  const step = async (name: string, text: string) => {
    const t = performance.now();
    await client.query(text);
    timingsMs[name] = Math.round(performance.now() - t);
  };
  const monday = `(date_trunc('week', now() AT TIME ZONE 'Europe/Berlin')::date + 12 * 7)`;
  await step(
    'availability',
    `
    INSERT INTO availabilities (coach_id, kind, start_day, start_time, end_time, recurrence, series_start, series_end)
    SELECT id, 'available', ${monday} - 84, '08:00', '18:00', 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
           ((${monday} - 84) + time '08:00') AT TIME ZONE 'Europe/Berlin', NULL
      FROM coaches;
    INSERT INTO availabilities (coach_id, kind, start_day, start_time, end_time, recurrence, series_start, series_end, note)
    SELECT id, 'blocker', ${monday} - 84, '12:00', '13:00', 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
           ((${monday} - 84) + time '12:00') AT TIME ZONE 'Europe/Berlin', NULL, 'Mittagspause'
      FROM (SELECT id, row_number() OVER (ORDER BY email) AS n FROM coaches) c WHERE n % 2 = 0;
  `,
  );
  // Appointment i: coach c = i % 50, k = i / 50 (0..99) → working day k / 5, slot k % 5.
  await step(
    'window appointments',
    `
    WITH slots AS (
      SELECT i, i % 50 AS c, i / 50 AS k FROM generate_series(0, ${SCHEDULING_SIZES.bookedInWindow - 1}) i
    ), timed AS (
      SELECT s.*, ((${monday} + ((s.k / 5) / 5) * 7 + (s.k / 5) % 5)
                   + make_time((ARRAY[8, 10, 13, 15, 17])[1 + s.k % 5], (ARRAY[0, 15, 30])[1 + (s.i * 7) % 3], 0))
                  AT TIME ZONE 'Europe/Berlin' AS start_date,
             (ARRAY[30, 45, 60])[1 + (s.i * 11) % 3] AS minutes
        FROM slots s
    )
    INSERT INTO appointments (client_id, coach_id, start_date, end_date, appointment_type, meeting_type,
      meeting_code_coach, meeting_code_client, video_room, appointment_number)
    SELECT cl.ids[t.i + 1], co.ids[t.c + 1], t.start_date, t.start_date + t.minutes * interval '1 minute',
           'followup', 'jitsi',
           'sc' || substr(md5('sc' || t.i), 1, 12), 'sk' || substr(md5('sk' || t.i), 1, 12),
           'bench-s-' || md5('sr' || t.i), 3
      FROM timed t,
           (SELECT array_agg(id ORDER BY created_at DESC) AS ids FROM clients) cl,
           (SELECT array_agg(id ORDER BY email) AS ids FROM coaches) co;
  `,
  );
  await step('analyze', 'ANALYZE availabilities; ANALYZE appointments');
  const { rows } = await client.query<{
    window_start: Date;
    window_end: Date;
    race_day: string;
    coach_ids: string[];
    client_ids: string[];
  }>(`
    SELECT (${monday}::timestamp AT TIME ZONE 'Europe/Berlin') AS window_start,
           ((${monday} + ${SCHEDULING_SIZES.windowDays})::timestamp AT TIME ZONE 'Europe/Berlin') AS window_end,
           (${monday} + 8 * 7)::text AS race_day,
           (SELECT array_agg(id ORDER BY email) FROM (SELECT id, email FROM coaches ORDER BY email LIMIT 5) c) AS coach_ids,
           (SELECT array_agg(id) FROM (SELECT id FROM clients ORDER BY created_at DESC
               OFFSET ${SCHEDULING_SIZES.bookedInWindow} LIMIT ${SCHEDULING_SIZES.raceRequests}) k) AS client_ids`);
  const r = rows[0]!;
  return {
    timingsMs,
    fixtures: {
      windowStart: r.window_start.toISOString(),
      windowEnd: r.window_end.toISOString(),
      raceDay: r.race_day,
      raceCoachIds: r.coach_ids,
      raceClientIds: r.client_ids,
    },
  };
}

/** The statement that reads what one slot request reads: the floor. */
export function floorQuery(from: string, to: string) {
  const pool = `SELECT id FROM coaches WHERE active AND takes_initial_appointments`;
  return {
    text: `
      SELECT 'c' AS k, id::text AS a, first_name AS b, last_name AS c, NULL::text AS d, NULL::json AS o,
             NULL::float8 AS s, NULL::float8 AS e
        FROM coaches WHERE active AND takes_initial_appointments
      UNION ALL
      SELECT 'a', a.coach_id::text, a.kind, a.start_day::text || ' ' || a.start_time::text, a.recurrence,
             (SELECT json_agg(o.*) FROM availability_overrides o WHERE o.availability_id = a.id), NULL, NULL
        FROM availabilities a
       WHERE a.coach_id IN (${pool}) AND a.series_start < $2::timestamptz
         AND (a.series_end IS NULL OR a.series_end > $1::timestamptz)
      UNION ALL
      SELECT 'b', coach_id::text, NULL, NULL, NULL, NULL,
             extract(epoch FROM start_date)::float8 * 1000, extract(epoch FROM end_date)::float8 * 1000
        FROM appointments
       WHERE coach_id IN (${pool}) AND cancelled_at IS NULL
         AND start_date >= $1::timestamptz - interval '12 hours' AND start_date < $2::timestamptz
         AND end_date > $1::timestamptz`,
    values: [from, to],
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
    : NaN;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
}

/** The floor under the same concurrency: `connections` callers on a pool of `poolSize`. */
export async function measureFloor(
  dbUrl: string,
  poolSize: number,
  connections: number,
  warmupS: number,
  durationS: number,
  query: { text: string; values: unknown[] },
) {
  const pool = new pgModule.Pool({ connectionString: dbUrl, max: poolSize });
  pool.on('error', () => {});
  const named = { name: 'bench_slots_floor', ...query };
  let rows = 0;
  const run = async (seconds: number, record: number[] | null) => {
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          const t = performance.now();
          const result = await pool.query(named);
          record?.push(performance.now() - t);
          rows = result.rowCount ?? 0;
        }
      }),
    );
  };
  // Serial: one statement at a time, the bare database time plus one round trip.
  const serial: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await pool.query(named);
    serial.push(performance.now() - t);
  }
  await run(warmupS, null);
  const latencies: number[] = [];
  await run(durationS, latencies);
  await pool.end();
  return {
    rows,
    serialMs: summary(serial),
    requests: latencies.length,
    rps: round(latencies.length / durationS, 1),
    latencyMs: summary(latencies),
  };
}

/** 500 bookings at once; exactly one per group of overlapping slots can succeed. */
export async function bookingRace(
  appUrl: string,
  headers: Record<string, string>,
  fixtures: SchedulingFixtures,
  dbUrl: string,
) {
  const groupsPerCoach = SCHEDULING_SIZES.raceGroups / fixtures.raceCoachIds.length;
  const berlin = (day: string, minutes: number) =>
    new Date(localInstant(day, '00:00') + minutes * 60_000);
  const requestsOn = (day: string) =>
    Array.from({ length: SCHEDULING_SIZES.raceRequests }, (_, i) => {
      const group = i % SCHEDULING_SIZES.raceGroups;
      const coachId = fixtures.raceCoachIds[Math.floor(group / groupsPerCoach)]!;
      const start = berlin(
        day,
        8 * 60 +
          (group % groupsPerCoach) * 120 +
          (Math.floor(i / SCHEDULING_SIZES.raceGroups) % 4) * 15,
      );
      return {
        group,
        body: {
          clientId: fixtures.raceClientIds[i]!,
          coachId,
          startDate: start.toISOString(),
          endDate: new Date(start.getTime() + 60 * 60_000).toISOString(),
          appointmentType: 'initial',
        },
      };
    });
  const requests = requestsOn(fixtures.raceDay);
  const admin = new pgModule.Client({ connectionString: dbUrl });
  await admin.connect();
  const deadlocks = async () =>
    Number(
      (
        await admin.query<{ deadlocks: string }>(
          'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
        )
      ).rows[0]!.deadlocks,
    );
  // Warm-up: the same race one day later, not measured (a fresh server's first requests pay
  // for JIT compilation and opening the pool's connections, which a serving instance has
  // long done).
  const warmUpDay = new Date(Date.parse(`${fixtures.raceDay}T12:00:00Z`) + 86_400_000)
    .toISOString()
    .slice(0, 10);
  const client = burstClient(appUrl, headers);
  // Every booking carries a fresh Idempotency-Key, as the web app's does
  // (src/machines/actors/scheduling.ts): the server then runs it inside the key's transaction.
  const book = (body: unknown) =>
    client.request('POST', '/api/appointment', body, { 'idempotency-key': randomUUID() });
  await Promise.all(requestsOn(warmUpDay).map(({ body }) => book(body)));
  // The floor of such a burst: 500 requests at once to the app's cheapest signed-in call
  // (token check, users lookup, a 20-row table), through the same client and sockets.
  const floorLatencies: number[] = [];
  const floorStarted = performance.now();
  await Promise.all(
    requests.map(async () => {
      const t = performance.now();
      await client.request('GET', '/api/admin/insurers');
      floorLatencies.push(performance.now() - t);
    }),
  );
  const floorWallMs = performance.now() - floorStarted;
  // The machine's floor: the same 500 bodies at once to a bare Fastify server (its own
  // process, no plugins, no database) through the same kind of client: what a burst of 500
  // costs on these cores before anything the app does.
  const bare = await startChild<{ port: number }>(
    path.join(import.meta.dirname, 'servers/bare-post.ts'),
  );
  const bareClient = burstClient(`http://127.0.0.1:${bare.message.port}`, headers);
  const bareKey = () => ({ 'idempotency-key': randomUUID() });
  const burstBare = () =>
    Promise.all(requests.map(({ body }) => bareClient.request('POST', '/floor', body, bareKey())));
  await burstBare(); // its sockets opened and its code warm, as the app's are
  const bareLatencies: number[] = [];
  await Promise.all(
    requests.map(async ({ body }) => {
      const t = performance.now();
      await bareClient.request('POST', '/floor', body, bareKey());
      bareLatencies.push(performance.now() - t);
    }),
  );
  bareClient.close();
  await stopChild(bare.child);
  const deadlocksBefore = await deadlocks();
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    requests.map(async ({ body }) => {
      const t = performance.now();
      const status = await book(body);
      latencies.push(performance.now() - t);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }),
  );
  const wallMs = performance.now() - started;
  client.close();
  // Stats are flushed asynchronously; give the collector a moment.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const deadlocksAfter = await deadlocks();
  const { rows } = await admin.query<{ n: string }>(
    `SELECT count(*) AS n FROM appointments
      WHERE cancelled_at IS NULL AND client_id = ANY($1::uuid[]) AND coach_id = ANY($2::uuid[])
        AND start_date >= $3::timestamptz AND start_date < $3::timestamptz + interval '1 day'`,
    [
      fixtures.raceClientIds,
      fixtures.raceCoachIds,
      new Date(localInstant(fixtures.raceDay, '00:00')).toISOString(),
    ],
  );
  await admin.end();
  const fiveXx = Object.entries(statuses)
    .filter(([s]) => Number(s) >= 500 || Number(s) === 0)
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    requests: requests.length,
    statuses,
    created: statuses['201'] ?? 0,
    conflicts: statuses['409'] ?? 0,
    fiveXxOrNetwork: fiveXx,
    liveAppointments: Number(rows[0]!.n),
    deadlocks: deadlocksAfter - deadlocksBefore,
    wallMs: round(wallMs),
    latencyMs: summary(latencies),
    floor: {
      description: '500 GET /api/admin/insurers at once, same client and sockets',
      wallMs: round(floorWallMs),
      latencyMs: summary(floorLatencies),
    },
    bareFloor: {
      description: 'the same 500 POST bodies at once to a bare Fastify server, no database',
      latencyMs: summary(bareLatencies),
      p99Ratio: round(
        percentile(
          [...latencies].sort((a, b) => a - b),
          99,
        ) /
          percentile(
            [...bareLatencies].sort((a, b) => a - b),
            99,
          ),
      ),
    },
    pass: {
      exactlyTwenty:
        Number(rows[0]!.n) === SCHEDULING_SIZES.raceGroups &&
        (statuses['201'] ?? 0) === SCHEDULING_SIZES.raceGroups,
      conflicts:
        (statuses['409'] ?? 0) === SCHEDULING_SIZES.raceRequests - SCHEDULING_SIZES.raceGroups,
      no5xx: fiveXx === 0,
      noDeadlock: deadlocksAfter === deadlocksBefore,
      p99:
        percentile(
          [...latencies].sort((a, b) => a - b),
          99,
        ) <= 200,
    },
  };
}
