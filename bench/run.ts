/**
 * npm run bench — list endpoints under load on real PostgreSQL, against a bare baseline.
 *
 * 1. Creates a scratch database spr_bench_<random> on DATABASE_URL's server (default
 *    postgres://postgres@127.0.0.1:5432), migrates it, bulk-loads 50,000 clients and
 *    100,000 appointments (bench/load.ts), VACUUM (ANALYZE).
 * 2. Starts two child processes, each with its own event loop: the real app (buildApp,
 *    bench/servers/app.ts) and the baseline (bare Fastify + pg.Pool reading one row by
 *    primary key, bench/servers/baseline.ts), both with the same pool size.
 * 3. autocannon, in this process, runs each scenario: warm-up, then BENCH_ROUNDS short runs
 *    in turns with the baseline, whose throughput in those same minutes is the scenario's
 *    reference. Latencies are recorded per response (autocannon's `response` event) so
 *    p50/p95/p99 are exact; autocannon's own summary has no p95.
 * 4. Writes bench/results/<timestamp>.json and bench/results/latest.json, prints a table,
 *    drops the database. A missed target is reported, not an error.
 *
 * Knobs (environment): BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2),
 * BENCH_CONNECTIONS (default 20), BENCH_ROUNDS (default 5), BENCH_ONLY (comma-separated scenario names),
 * BENCH_KEEP_DB=1 (leave the database for inspection), DATABASE_POOL_SIZE (default 10),
 * BENCH_RACE_ROUNDS (default 1: how many times the booking race runs).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Temporal } from '@js-temporal/polyfill';
import autocannon from 'autocannon';
import pg from 'pg';
import { connectPostgres } from '../server/db/client';
import {
  CONNECTIONS,
  DURATION,
  env,
  loadSettings,
  percentile,
  POOL_SIZE,
  reportHead,
  round,
  ROUNDS,
  signedHeaders,
  WARMUP,
} from './common';
import { cpuSince, machineCpu, postgresCpu, processCpuMs } from './cpu';
import { drainBillableItems, loadBenchData, SIZES } from './load';
import { calendarSlots, calendarSync } from './calendar-slots';
import { bookingRace, floorQuery, loadSchedulingData, measureFloor } from './scheduling';
import { stopChild } from './servers/child';
import { startAppAndBaseline } from './servers/pair';

const here = path.dirname(fileURLToPath(import.meta.url));
const RACE_ROUNDS = env('BENCH_RACE_ROUNDS', 1);
const ONLY = process.env.BENCH_ONLY?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const TARGET = { p95Ms: 20, throughputShare: 0.5 };

const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `spr_bench_${randomBytes(4).toString('hex')}`;
const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
const dbUrl = withDatabase(server, dbName);
const log = (...args: unknown[]) =>
  console.log(`[bench ${(performance.now() / 1000).toFixed(1)}s]`, ...args);

interface Scenario {
  name: string;
  description: string;
  target: 'baseline' | 'app';
  path: string;
  /** Each request's own path, for a scenario that must not repeat itself. */
  nextPath?: () => string;
}

interface Measured {
  name: string;
  description: string;
  url: string;
  probe: { status: number; itemCount?: number; rows?: number; bytes: number };
  skipped?: string;
  requests?: number;
  durationS?: number;
  rps?: number;
  okRps?: number;
  latencyMs?: { p50: number; p95: number; p99: number; mean: number; max: number };
  non2xx?: number;
  errors?: number;
  timeouts?: number;
  cpuMsPerRequest?: { server?: number; postgres?: number; loadGenerator?: number };
  machineCpuBusy?: number;
  /** The baseline, measured in turns with this scenario. */
  pairedBaseline?: { okRps: number; p95Ms: number; cpuMsPerRequest: Measured['cpuMsPerRequest'] };
  throughputVsBaseline?: number;
  pass?: { p95: boolean; throughput: boolean };
}

// ---------------------------------------------------------------------------------------

async function probe(url: string, headers: Record<string, string>): Promise<Measured['probe']> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  let itemCount: number | undefined;
  let rows: number | undefined;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body.itemCount === 'number') itemCount = body.itemCount;
    const list = Object.values(body).find(Array.isArray);
    if (list) rows = (list as unknown[]).length;
  } catch {
    /* not JSON */
  }
  return { status: response.status, itemCount, rows, bytes: Buffer.byteLength(text) };
}

interface Target {
  url: string;
  headers: Record<string, string>;
  /** The server's process, for its CPU time. */
  pid?: number;
  nextPath?: () => string;
}

/** autocannon's options for a target: one URL, or a new path for every request. */
const loadOptions = (t: Target, duration: number): autocannon.Options => ({
  url: t.url,
  headers: t.headers,
  connections: CONNECTIONS,
  duration,
  ...(t.nextPath
    ? { requests: [{ setupRequest: (request) => ({ ...request, path: t.nextPath!() }) }] }
    : {}),
});

/** One stretch of load on one target, with the CPU the machine's processes spent meanwhile. */
interface Slice {
  latencies: number[];
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  serverMs: number;
  postgresMs?: number;
  loadMs: number;
  machine?: { busy: number; total: number };
}

const warm = (t: Target) => autocannon(loadOptions(t, WARMUP));

async function slice(t: Target, seconds: number): Promise<Slice> {
  const latencies: number[] = [];
  const serverAt = processCpuMs(t.pid);
  const postgresAt = postgresCpu();
  const loadAt = process.cpuUsage();
  const machineAt = machineCpu();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(loadOptions(t, seconds), (err, res) =>
      err ? reject(err) : resolve(res),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) =>
      latencies.push(responseTime),
    );
  });
  const load = process.cpuUsage(loadAt);
  const machine = machineCpu();
  return {
    latencies,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    serverMs: (processCpuMs(t.pid) ?? NaN) - (serverAt ?? NaN),
    postgresMs: postgresAt.size ? cpuSince(postgresAt, postgresCpu()) : undefined,
    loadMs: (load.user + load.system) / 1000,
    machine:
      machine && machineAt
        ? { busy: machine.busy - machineAt.busy, total: machine.total - machineAt.total }
        : undefined,
  };
}

/** The figures of a target's slices taken together. */
function summarize(slices: Slice[]) {
  const sum = (pick: (s: Slice) => number) => slices.reduce((a, s) => a + pick(s), 0);
  const latencies = slices.flatMap((s) => s.latencies);
  const sorted = Float64Array.from(latencies).sort();
  const mean = latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length);
  const seconds = sum((s) => s.seconds);
  const total = sum((s) => s.requests);
  const non2xx = sum((s) => s.non2xx);
  const perRequest = (ms: number) => (Number.isFinite(ms) ? round(ms / total, 3) : undefined);
  const machine = slices.every((s) => s.machine)
    ? round(
        sum((s) => s.machine!.busy) /
          Math.max(
            1,
            sum((s) => s.machine!.total),
          ),
      )
    : undefined;
  return {
    // Where the machine's CPU went per request (10 ms ticks, so ±10 ms over the run).
    cpuMsPerRequest: {
      server: perRequest(sum((s) => s.serverMs)),
      postgres: slices.every((s) => s.postgresMs !== undefined)
        ? perRequest(sum((s) => s.postgresMs!))
        : undefined,
      loadGenerator: perRequest(sum((s) => s.loadMs)),
    },
    machineCpuBusy: machine,
    requests: total,
    durationS: seconds,
    rps: round(total / seconds, 1),
    okRps: round((total - non2xx) / seconds, 1),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      mean: round(mean),
      max: round(sorted[sorted.length - 1] ?? NaN),
    },
    non2xx,
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
  };
}

/** Warm-up (JIT, pool connections, PostgreSQL caches; nothing recorded), then one run. */
async function measure(url: string, headers: Record<string, string>, pid?: number) {
  const target = { url, headers, pid };
  await warm(target);
  return summarize([await slice(target, DURATION)]);
}

/**
 * A scenario and the baseline in turns (ROUNDS short runs each, baseline first), so both
 * see the same load from the machine's other tenants: on shared cores the throughput drifts
 * by a fifth within minutes, and a baseline measured once at the start mixed that drift into
 * every ratio.
 */
async function measurePaired(scenario: Target, baseline: Target) {
  await warm(baseline);
  await warm(scenario);
  const seconds = Math.max(1, Math.round(DURATION / ROUNDS));
  const slices = { scenario: [] as Slice[], baseline: [] as Slice[] };
  for (let round = 0; round < ROUNDS; round++) {
    slices.baseline.push(await slice(baseline, seconds));
    slices.scenario.push(await slice(scenario, seconds));
  }
  return { scenario: summarize(slices.scenario), baseline: summarize(slices.baseline) };
}

// ---------------------------------------------------------------------------------------

const admin = new pg.Client({ connectionString: server });
let appChild: ChildProcess | undefined;
let baselineChild: ChildProcess | undefined;
let created = false;

async function main() {
  const started = new Date();
  const loadBefore = os.loadavg();
  await admin.connect();
  const { rows: versionRows } = await admin.query<{ server_version: string }>(
    'SHOW server_version',
  );
  await admin.query(`CREATE DATABASE ${dbName}`);
  created = true;
  log(`database ${dbName} created`);

  let t = performance.now();
  const migrator = connectPostgres(dbUrl, 2);
  await migrator.migrate();
  await migrator.close();
  const migrateMs = Math.round(performance.now() - t);

  t = performance.now();
  const loader = new pg.Client({ connectionString: dbUrl });
  await loader.connect();
  const { timingsMs, fixtures } = await loadBenchData(loader);
  const schedulingData = await loadSchedulingData(loader);
  Object.assign(timingsMs, schedulingData.timingsMs);
  await loader.end();
  timingsMs.billableItems = await drainBillableItems(dbUrl);
  const loadMs = Math.round(performance.now() - t);
  log(
    `migrated in ${migrateMs} ms; loaded ${SIZES.clients} clients, ${SIZES.appointments} appointments in ${loadMs} ms`,
    timingsMs,
  );

  const { issuer, app, baseline } = await startAppAndBaseline(dbUrl, POOL_SIZE);
  appChild = app.child;
  baselineChild = baseline.child;
  log(
    `app on :${app.message.port}, baseline on :${baseline.message.port}, pool size ${POOL_SIZE} each`,
  );

  // What the web app sends with every list request (src/api), so content negotiation costs the same.
  const headers = await signedHeaders(issuer, fixtures.adminSubject, 'admin@bench.example');

  const now = Date.now();
  const monthStart = new Date(now - 45 * 86_400_000);
  monthStart.setUTCDate(1);
  monthStart.setUTCHours(0, 0, 0, 0);
  const monthEnd = new Date(monthStart);
  monthEnd.setUTCMonth(monthEnd.getUTCMonth() + 1);
  const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

  const scenarios: Scenario[] = [
    {
      name: 'baseline',
      target: 'baseline',
      path: `/clients/${fixtures.someClientId}`,
      description: 'bare Fastify + pg: one row by primary key',
    },
    // Diagnostic: what the app costs before any list query (token check, users lookup, a
    // 20-row table), so a list scenario's gap to the baseline can be split in two.
    {
      name: 'app.floor',
      target: 'app',
      path: '/api/admin/insurers',
      description: 'diagnostic: auth + a 20-row reference list',
    },
    {
      name: 'appointments.a.firstPage',
      target: 'app',
      path: '/api/appointments',
      description: 'first page, unfiltered',
    },
    {
      name: 'appointments.b.coachMonth',
      target: 'app',
      path: `/api/appointments${q({ coach: fixtures.coachId, fromDate: monthStart.toISOString(), toDate: monthEnd.toISOString() })}`,
      description: 'one coach, one month',
    },
    {
      name: 'appointments.c.typeInsurer',
      target: 'app',
      path: `/api/appointments${q({ appointmentType: 'followup', cancelled: 'false', insurer: fixtures.insurer })}`,
      description: 'appointmentType=followup, cancelled=false, insurer',
    },
    {
      name: 'clients.a.default',
      target: 'app',
      path: '/api/admin/client',
      description: 'default first page',
    },
    {
      name: 'clients.b.search',
      target: 'app',
      path: `/api/admin/client${q({ search: 'müller' })}`,
      description: 'search=müller (200 hits)',
    },
    {
      name: 'clients.c.filters',
      target: 'app',
      path: `/api/admin/client${q({ campaign: fixtures.campaign, hasRejected: 'false', createdAfter: new Date(now - 180 * 86_400_000).toISOString() })}`,
      description: 'campaign + hasRejected=false + createdAfter (180 days)',
    },
    // Diagnostic: clients.c with a new createdAfter on every request, so no request finds its
    // count remembered (server/http/paging.ts): what a list costs right after a write.
    {
      name: 'clients.c.uncounted',
      target: 'app',
      path: `/api/admin/client${q({ campaign: fixtures.campaign, hasRejected: 'false', createdAfter: new Date(now - 180 * 86_400_000).toISOString() })}`,
      nextPath: (() => {
        let n = 0;
        return () =>
          `/api/admin/client${q({ campaign: fixtures.campaign, hasRejected: 'false', createdAfter: new Date(now - 180 * 86_400_000 + ++n).toISOString() })}`;
      })(),
      description:
        'clients.c, every request a new createdAfter (count never remembered): diagnostic',
    },
    {
      name: 'clients.d.phone',
      target: 'app',
      path: `/api/admin/client${q({ phoneNumber: fixtures.phoneNumber })}`,
      description: `phoneNumber=${fixtures.phoneNumber}`,
    },
    // Guard: a common name. Its larger estimate once turned the search's generic plan into
    // a walk of every client in the list's order (27 req/s); see searchPage in
    // server/features/clients/list.ts.
    {
      name: 'clients.e.commonName',
      target: 'app',
      path: `/api/admin/client${q({ search: 'schmid' })}`,
      description: 'search=schmid (about 1,500 hits): diagnostic',
    },
  ].filter(
    (s): s is Scenario => !ONLY || s.name === 'baseline' || ONLY.some((o) => s.name.includes(o)),
  );
  // ~24 s per app scenario (warm-ups, then its runs in turns with the baseline's).

  const results: Measured[] = [];
  const baselineUrl = `http://127.0.0.1:${baseline.message.port}/clients/${fixtures.someClientId}`;
  for (const scenario of scenarios) {
    const base =
      scenario.target === 'app'
        ? `http://127.0.0.1:${app.message.port}`
        : `http://127.0.0.1:${baseline.message.port}`;
    const url = base + scenario.path;
    const h = scenario.target === 'app' ? headers : {};
    const probed = await probe(url, h);
    const entry: Measured = {
      name: scenario.name,
      description: scenario.description,
      url: scenario.path,
      probe: probed,
    };
    if (probed.status !== 200) {
      entry.skipped = `probe answered ${probed.status}`;
      log(`${scenario.name}: skipped, ${entry.skipped}`);
      results.push(entry);
      continue;
    }
    log(
      `${scenario.name}: ${scenario.description} — probe 200, itemCount ${probed.itemCount ?? '-'}, ${probed.bytes} bytes; measuring ${WARMUP}+${DURATION} s`,
    );
    if (scenario.target === 'baseline') {
      Object.assign(entry, await measure(url, h, baselineChild?.pid));
    } else {
      const paired = await measurePaired(
        {
          url,
          headers: h,
          pid: appChild?.pid,
          ...(scenario.nextPath ? { nextPath: scenario.nextPath } : {}),
        },
        { url: baselineUrl, headers: {}, pid: baselineChild?.pid },
      );
      Object.assign(entry, paired.scenario);
      entry.pairedBaseline = {
        okRps: paired.baseline.okRps,
        p95Ms: paired.baseline.latencyMs.p95,
        cpuMsPerRequest: paired.baseline.cpuMsPerRequest,
      };
      entry.throughputVsBaseline = round(entry.okRps! / paired.baseline.okRps, 3);
      entry.pass = {
        p95: entry.latencyMs!.p95 <= TARGET.p95Ms,
        throughput: entry.throughputVsBaseline >= TARGET.throughputShare,
      };
    }
    results.push(entry);
  }

  const scheduling = await runScheduling(
    `http://127.0.0.1:${app.message.port}`,
    headers,
    schedulingData.fixtures,
  );

  const report = {
    ...reportHead(started, TARGET),
    settings: { ...loadSettings(), sizes: SIZES },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGb: round(os.totalmem() / 2 ** 30, 1),
      node: process.version,
      postgres: versionRows[0]?.server_version,
      loadAverageBefore: loadBefore.map((n) => round(n)),
      loadAverageAfter: os.loadavg().map((n) => round(n)),
    },
    setup: { migrateMs, loadMs, loadStepsMs: timingsMs },
    method:
      'Servers run in child processes (one event loop each); autocannon runs in the parent. ' +
      'Each app scenario: warm-ups, then BENCH_ROUNDS short runs in turns with the baseline ' +
      '(baseline first); latencies recorded per response (autocannon "response" event), ' +
      'percentiles by nearest rank. okRps counts 2xx responses only. throughputVsBaseline = ' +
      'okRps / okRps of the baseline runs taken in turns with it (pairedBaseline). ' +
      'Request logging off in both servers.',
    scenarios: results,
    scheduling,
  };

  const dir = path.join(here, 'results');
  mkdirSync(dir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const file = path.join(dir, `${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, json);
  writeFileSync(path.join(dir, 'latest.json'), json);

  printTable(results);
  log(`results: ${path.relative(process.cwd(), file)} and bench/results/latest.json`);
  const misses = results.filter((r) => r.pass && (!r.pass.p95 || !r.pass.throughput));
  if (misses.length > 0)
    log(
      `${misses.length} scenario(s) miss a target (p95 ≤ ${TARGET.p95Ms} ms, ≥ ${TARGET.throughputShare * 100} % of baseline); exit code stays 0.`,
    );
}

const wants = (name: string) => !ONLY || ONLY.some((o) => name.includes(o));

/** Scheduling figures (bench/scheduling.ts): slots with their SQL floor, the booking race. */
async function runScheduling(
  appUrl: string,
  headers: Record<string, string>,
  fixtures: Awaited<ReturnType<typeof loadSchedulingData>>['fixtures'],
) {
  const out: Record<string, unknown> = {};
  if (wants('slots.initialPool28d')) {
    const urlOf = (form: 'full' | 'compact') =>
      `${appUrl}/api/client/initial_appointment_slots?${new URLSearchParams({
        startDate: fixtures.windowStart,
        endDate: fixtures.windowEnd,
        duration: '30',
        ...(form === 'compact' ? { form } : {}),
      }).toString()}`;
    const url = urlOf('full');
    const probed = await probe(url, headers);
    const compactUrl = urlOf('compact');
    const compactProbe = await probe(compactUrl, headers);
    log(
      `slots.initialPool28d: probe ${probed.status}, ${probed.rows ?? '-'} slots, ${probed.bytes} bytes (compact form ${compactProbe.status}, ${compactProbe.bytes} bytes); measuring ${WARMUP}+${DURATION} s`,
    );
    const app = await measure(url, headers);
    const floor = await measureFloor(
      dbUrl,
      POOL_SIZE,
      CONNECTIONS,
      WARMUP,
      DURATION,
      floorQuery(fixtures.windowStart, fixtures.windowEnd),
    );
    // What the pickers ask for since the compact form exists: the same slots, same run.
    const compact = await measure(compactUrl, headers);
    const ratio = round(app.latencyMs.p95 / floor.latencyMs.p95, 2);
    const compactRatio = round(compact.latencyMs.p95 / floor.latencyMs.p95, 2);
    out['slots.initialPool28d'] = {
      url: url.slice(appUrl.length),
      probe: probed,
      ...app,
      floor,
      p95VsFloor: ratio,
      pass: { p95: app.latencyMs.p95 <= 30, ratio: ratio <= 3 },
    };
    out['slots.initialPool28d.compact'] = {
      url: compactUrl.slice(appUrl.length),
      probe: compactProbe,
      bytesFull: probed.bytes,
      bytesCompact: compactProbe.bytes,
      sizeShare: round(compactProbe.bytes / probed.bytes, 3),
      ...compact,
      p95VsFloor: compactRatio,
      pass: { p95: compact.latencyMs.p95 <= 30, ratio: compactRatio <= 3 },
    };
    log(
      `slots.initialPool28d: p50 ${app.latencyMs.p50} / p95 ${app.latencyMs.p95} / p99 ${app.latencyMs.p99} ms, ${app.okRps} req/s, non-2xx ${app.non2xx}; ` +
        `floor (${floor.rows} rows) p95 ${floor.latencyMs.p95} ms (serial p50 ${floor.serialMs.p50} ms); ratio ${ratio}× ` +
        `[p95 ≤ 30 ms: ${app.latencyMs.p95 <= 30 ? 'pass' : 'FAIL'}, ≤ 3×: ${ratio <= 3 ? 'pass' : 'FAIL'}]`,
    );
    log(
      `slots.initialPool28d.compact: ${compactProbe.bytes} bytes (full ${probed.bytes}); p50 ${compact.latencyMs.p50} / p95 ${compact.latencyMs.p95} / p99 ${compact.latencyMs.p99} ms, ${compact.okRps} req/s, non-2xx ${compact.non2xx}; ratio ${compactRatio}× ` +
        `[p95 ≤ 30 ms: ${compact.latencyMs.p95 <= 30 ? 'pass' : 'FAIL'}, ≤ 3×: ${compactRatio <= 3 ? 'pass' : 'FAIL'}]`,
    );
  }
  // BENCH_RACE_ROUNDS=n repeats the race n times (two days later each time), to show its noise.
  for (let round = 0; wants('booking.race') && round < RACE_ROUNDS; round++) {
    const raceDay = Temporal.PlainDate.from(fixtures.raceDay)
      .add({ days: 2 * round })
      .toString();
    const race = await bookingRace(appUrl, headers, { ...fixtures, raceDay }, dbUrl);
    const name = round === 0 ? 'booking.race' : `booking.race.${round + 1}`;
    out[name] = race;
    log(
      `${name}: ${race.requests} requests → ${JSON.stringify(race.statuses)}; ${race.liveAppointments} live appointments; ` +
        `${race.deadlocks} deadlocks; p50 ${race.latencyMs.p50} / p95 ${race.latencyMs.p95} / p99 ${race.latencyMs.p99} ms ` +
        `(wall ${race.wallMs} ms; floor: 500 cheapest calls p99 ${race.floor.latencyMs.p99} ms, wall ${race.floor.wallMs} ms; bare Fastify p99 ${race.bareFloor.latencyMs.p99} ms, ratio ${race.bareFloor.p99Ratio}×) ${JSON.stringify(race.pass)}`,
    );
  }
  // After the race: the calendars' busy times would take the race's slots.
  if (wants('calendars.slots28d')) {
    const figures = await calendarSlots(
      appUrl,
      headers,
      dbUrl,
      { start: fixtures.windowStart, end: fixtures.windowEnd },
      Math.max(1, Math.round(DURATION / 3)),
      log,
    );
    out['calendars.slots28d'] = figures;
    const line = (kind: 'picker' | 'computed') =>
      `${kind}: p95 ${figures.without[kind].latencyMs.p95} → ${figures.with[kind].latencyMs.p95} ms ` +
      `(${figures.without[kind].okRps} → ${figures.with[kind].okRps} req/s), ${figures.p95Ratio[kind]}× ` +
      `[≤ 1.5×: ${figures.pass[kind] ? 'pass' : 'FAIL'}]`;
    log(
      `calendars.slots28d: ${figures.connect[0]?.busyRows ?? '?'} kept busy times of ${figures.connect[0]?.coaches ?? '?'} coaches; ${line('picker')}; ${line('computed')}`,
    );
  }
  if (wants('calendars.sync')) {
    const sync = await calendarSync(dbUrl, log);
    out['calendars.sync'] = sync;
    log(
      `calendars.sync: full sync of ${sync.radicale.objects} objects ${sync.full.ms} ms, ${sync.full.result?.rowsWritten ?? '?'} rows written ` +
        `(PostgreSQL: ${JSON.stringify(sync.full.postgresRowsWritten)}); kept ${sync.kept.busyTimes} busy times; ` +
        `unchanged sync ${sync.unchanged.ms} ms, ${sync.unchanged.result?.rowsWritten ?? '?'} rows (PostgreSQL: ${JSON.stringify(sync.unchanged.postgresRowsWritten)}) ` +
        `[writes nothing: ${sync.pass.unchangedWritesNothing ? 'pass' : 'FAIL'}]`,
    );
  }
  return out;
}

function printTable(results: Measured[]) {
  const header = [
    'scenario',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'req/s',
    'non-2xx',
    'base req/s',
    'vs base',
    'p95≤20',
    '≥50%',
    'cpu ms/req srv+pg+load',
  ];
  const rows = results.map((r) =>
    r.skipped
      ? [r.name, '-', '-', '-', '-', '-', '-', '-', r.skipped, '', '']
      : [
          r.name,
          r.latencyMs!.p50.toFixed(1),
          r.latencyMs!.p95.toFixed(1),
          r.latencyMs!.p99.toFixed(1),
          r.okRps!.toFixed(0),
          String(r.non2xx! + r.errors! + r.timeouts!),
          r.pairedBaseline ? r.pairedBaseline.okRps.toFixed(0) : '',
          r.throughputVsBaseline === undefined
            ? ''
            : `${(r.throughputVsBaseline * 100).toFixed(0)} %`,
          r.pass ? (r.pass.p95 ? 'pass' : 'FAIL') : '',
          r.pass ? (r.pass.throughput ? 'pass' : 'FAIL') : '',
          [r.cpuMsPerRequest?.server, r.cpuMsPerRequest?.postgres, r.cpuMsPerRequest?.loadGenerator]
            .map((ms) => (ms === undefined ? '?' : ms.toFixed(2)))
            .join('+'),
        ],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of rows) console.log(line(r));
  console.log('');
}

async function cleanup() {
  await Promise.all([stopChild(appChild), stopChild(baselineChild)]);
  if (created && process.env.BENCH_KEEP_DB !== '1') {
    await admin
      .query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
      .catch((err) => log('could not drop', dbName, err));
    log(`database ${dbName} dropped`);
  } else if (created) {
    log(`database kept: ${dbUrl}`);
  }
  await admin.end().catch(() => {});
}

let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  log('interrupted, cleaning up');
  void cleanup().finally(() => process.exit(130));
});

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  if (!interrupted) await cleanup();
}
