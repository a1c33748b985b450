/**
 * CPU per request of GET /billable-items on a kept bench database (BENCH_KEEP_DB=1 npm run
 * bench:billing), for judging a change on a shared machine: the app's process CPU and the CPU
 * of the PostgreSQL backends of that database only, per request, with a fixed number of
 * requests per scenario (not a fixed time), alternating with the bare baseline.
 *
 *   BENCH_DB=postgres://postgres@127.0.0.1:5432/spr_bench_billing_xxx npx tsx bench/billing-cpu.ts
 *
 * BENCH_REQUESTS (default 3000) per scenario and round, BENCH_ROUNDS (default 3),
 * BENCH_CONNECTIONS (default 20), BENCH_ONLY=a,b (scenario names containing these).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { billableItemScenarios, signedHeaders } from './common';
import { startAppAndBaseline } from './servers/pair';
import { stopChild } from './servers/child';

const dbUrl = process.env.BENCH_DB;
if (!dbUrl) throw new Error('BENCH_DB is required');
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const REQUESTS = num('BENCH_REQUESTS', 3000);
const ROUNDS = num('BENCH_ROUNDS', 3);
const CONNECTIONS = num('BENCH_CONNECTIONS', 20);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);

const cpuMs = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return SYS === 'user'
      ? Number(f[11]) * 10
      : SYS === 'sys'
        ? Number(f[12]) * 10
        : (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
};
const SYS = process.env.BENCH_CPU_PART;

const admin = new pg.Client({ connectionString: dbUrl });
await admin.connect();
const dbName = new URL(dbUrl).pathname.slice(1);
const backends = async () =>
  (
    await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [dbName],
    )
  ).rows.map((r) => r.pid);
const pgCpu = async () => {
  const m = new Map<number, number>();
  for (const pid of await backends()) m.set(pid, cpuMs(pid));
  return m;
};

// Statements outside a transaction commit one each: round trips per request.
const xacts = async () => {
  const { rows } = await admin.query<{ n: string }>(
    'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
    [dbName],
  );
  await admin.query('SELECT pg_stat_clear_snapshot()');
  return Number(rows[0]!.n);
};
const { rows: fx } = await admin.query<{
  coach_id: string;
  client_id: string;
  insurer: string;
  some_client: string;
}>(`SELECT (SELECT coach_id FROM billable_items GROUP BY coach_id ORDER BY count(*) DESC LIMIT 1) AS coach_id,
  (SELECT client_id FROM billable_items ORDER BY id LIMIT 1) AS client_id,
  (SELECT insurer FROM billable_items WHERE insurer IS NOT NULL ORDER BY id LIMIT 1) AS insurer,
  (SELECT id FROM clients LIMIT 1) AS some_client`);
const f = fx[0]!;

const { issuer, app, baseline } = await startAppAndBaseline(dbUrl, 10);
try {
  const headers = await signedHeaders(issuer, 'bench-admin', 'admin@bench.example');
  const appUrl = `http://127.0.0.1:${app.message.port}`;
  const baseUrl = `http://127.0.0.1:${baseline.message.port}/clients/${f.some_client}`;
  const scenarios = billableItemScenarios({
    coachId: f.coach_id,
    clientId: f.client_id,
    insurer: f.insurer,
  })
    .map((s) => ({ name: s.name, url: appUrl + s.path }))
    .filter((s) => !ONLY || ONLY.some((o) => s.name.includes(o)));

  const run = async (url: string, h: Record<string, string>, pid: number, amount: number) => {
    const x0 = await xacts();
    const node0 = cpuMs(pid);
    const pg0 = await pgCpu();
    const t = performance.now();
    const load0 = process.cpuUsage();
    const res = await autocannon({ url, headers: h, connections: CONNECTIONS, amount });
    const load1 = process.cpuUsage(load0);
    const ms = performance.now() - t;
    const node = cpuMs(pid) - node0;
    const pg1 = await pgCpu();
    let pgMs = 0;
    for (const [p, v] of pg1) pgMs += v - (pg0.get(p) ?? 0);
    const n = res.requests.total;
    const trips = ((await xacts()) - x0 - 2) / n;
    return {
      trips,
      n,
      non2xx: res.non2xx,
      rps: (n / ms) * 1000,
      node: node / n,
      pg: pgMs / n,
      // The load generator (this process): reading a larger answer costs it more.
      load: (load1.user + load1.system) / 1000 / n,
      p95: res.latency.p97_5,
    };
  };
  const appPid = app.child.pid!;
  const basePid = baseline.child.pid!;
  for (const s of scenarios) {
    await run(s.url, headers, appPid, 500);
    const rows = [];
    for (let i = 0; i < ROUNDS; i++) {
      const b = await run(baseUrl, {}, basePid, REQUESTS);
      const a = await run(s.url, headers, appPid, REQUESTS);
      rows.push({ a, b });
    }
    const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const r2 = (x: number) => Math.round(x * 1000) / 1000;
    console.log(
      `${s.name}: trips ${r2(med(rows.map((r) => r.a.trips)))}, node ${r2(med(rows.map((r) => r.a.node)))} ms/req, pg ${r2(med(rows.map((r) => r.a.pg)))} ms/req, load ${r2(med(rows.map((r) => r.a.load)))} ` +
        `| baseline node ${r2(med(rows.map((r) => r.b.node)))} pg ${r2(med(rows.map((r) => r.b.pg)))} load ${r2(med(rows.map((r) => r.b.load)))} ` +
        `| rps ${Math.round(med(rows.map((r) => r.a.rps)))} vs ${Math.round(med(rows.map((r) => r.b.rps)))} ` +
        `= ${Math.round(100 * med(rows.map((r) => r.a.rps / r.b.rps)))} % | non2xx ${rows.reduce((n, r) => n + r.a.non2xx, 0)} | load ${os.loadavg()[0]!.toFixed(1)}`,
    );
  }
} finally {
  await Promise.all([stopChild(app.child), stopChild(baseline.child)]);
  await admin.end();
}
