/**
 * npm run bench:clinical — GET /summaries/incomplete over 100,000 appointments of 50 coaches,
 * and the autosave round trip of a 5 KB summary draft.
 *
 * 1. A scratch database spr_bench_clinical_<random> (DATABASE_URL's server, default
 *    postgres://postgres@127.0.0.1:5432), migrated; the list bench's clients and appointments
 *    (bench/load.ts); a summary for most held appointments in one INSERT … SELECT (by a hash
 *    of the appointment: 70 % completed, 20 % sent, 4 % new, 6 % none); VACUUM (ANALYZE).
 * 2. The real app and the bare Fastify + pg baseline as child processes (bench/servers/pair.ts).
 * 3. Each list scenario with the web app's headers: warm-up, then BENCH_ROUNDS short runs in
 *    turns with the baseline; p50/p95/p99, okRps and the ratio to the baseline's in the same minutes.
 * 4. Autosave: BENCH_AUTOSAVES sequential PUT /appointment/{id}/summary with a 5 KB draft and
 *    If-Match (as the editor sends it), interleaved with as many POST /login (the app's
 *    cheapest signed-in POST: token check, users row, no body); p95 of each and the ratio.
 * JSON to bench/results/clinical-<timestamp>.json and clinical-latest.json; the database is
 * dropped unless BENCH_KEEP_DB=1.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import type pg from 'pg';
import { drainBillableItems, loadBenchData } from './load';
import { benchLog, onScratchDatabase, round } from './servers/scratch';

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const DURATION = env('BENCH_DURATION', 10);
const WARMUP = env('BENCH_WARMUP', 2);
const CONNECTIONS = env('BENCH_CONNECTIONS', 20);
const ROUNDS = env('BENCH_ROUNDS', 5);
const POOL_SIZE = env('DATABASE_POOL_SIZE', 10);
const AUTOSAVES = env('BENCH_AUTOSAVES', 300);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const TARGET = { p95Ms: 20, throughputShare: 0.5, autosaveVsCheapestPost: 3 };

const log = benchLog('clinical');
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

const content = (i: number) => ({
  format: 'SOAP',
  riskFlag: false,
  sections: {
    subjective:
      `Runde ${i}: ` + 'Die Klientin berichtet von Schlafproblemen und Druck im Beruf. '.repeat(20),
    objective: 'Stressskala 24/40, ruhig, zugewandt. '.repeat(20),
    assessment: 'Belastung hoch, Ressourcen vorhanden, Motivation gut. '.repeat(20),
    plan: 'Atemübung täglich, Schlafprotokoll, nächster Termin in zwei Wochen. '.repeat(26),
  },
  nextSteps: 'Schlafprotokoll mitbringen.',
});

/** A summary for most held appointments: 70 % completed, 20 % sent, 4 % new, 6 % none. */
async function loadSummaries(client: pg.Client) {
  const t = performance.now();
  await client.query(`
    INSERT INTO appointment_summaries (appointment_id, client_id, coach_id, status, content, signed_by_id,
      signed_at, content_hash, completed_at, created_at, updated_at)
    SELECT a.id, a.client_id, a.coach_id, s,
      '{"format":"SOAP","riskFlag":false,"sections":{"subjective":"s","objective":"o","assessment":"a","plan":"p"}}'::jsonb,
      CASE WHEN s <> 'new' THEN (SELECT id FROM users WHERE auth_subject = 'bench-admin') END,
      CASE WHEN s <> 'new' THEN a.end_date END,
      CASE WHEN s <> 'new' THEN md5(a.id::text) || md5(a.id::text) END,
      CASE WHEN s = 'completed' THEN a.end_date + interval '1 day' END,
      a.end_date, a.end_date
    FROM (SELECT a.*, CASE WHEN abs(hashtext('sum' || a.id)) % 100 < 70 THEN 'completed'
                           WHEN abs(hashtext('sum' || a.id)) % 100 < 90 THEN 'sent'
                           WHEN abs(hashtext('sum' || a.id)) % 100 < 94 THEN 'new' END AS s
            FROM appointments a
           WHERE a.cancelled_at IS NULL AND NOT a.no_show AND a.start_date < now() - interval '30 minutes') a
    WHERE s IS NOT NULL`);
  await client.query('VACUUM (ANALYZE)');
  const { rows } = await client.query<{ n: number; appointment_id: string }>(`
    SELECT (SELECT count(*)::int FROM appointment_summaries) AS n,
      (SELECT appointment_id FROM appointment_summaries WHERE status = 'new' ORDER BY id LIMIT 1) AS appointment_id`);
  return { ms: Math.round(performance.now() - t), ...rows[0]! };
}

interface Slice {
  latencies: number[];
  requests: number;
  non2xx: number;
  seconds: number;
}

function run(url: string, headers: Record<string, string>, seconds: number) {
  return new Promise<Slice>((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      { url, headers, connections: CONNECTIONS, duration: seconds },
      (err, res) =>
        err
          ? reject(err)
          : resolve({
              latencies,
              requests: res.requests.total,
              non2xx: res.non2xx,
              seconds: res.duration,
            }),
    );
    instance.on('response', (_c, _s, _b, ms) => latencies.push(ms));
  });
}

function summarize(slices: Slice[]) {
  const sorted = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const seconds = slices.reduce((n, s) => n + s.seconds, 0);
  const requests = slices.reduce((n, s) => n + s.requests, 0);
  const non2xx = slices.reduce((n, s) => n + s.non2xx, 0);
  return {
    requests,
    non2xx,
    okRps: round((requests - non2xx) / seconds, 1),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
    },
  };
}

/** The scenario and the baseline in turns, so both see the machine's other load alike. */
async function paired(url: string, headers: Record<string, string>, baseline: string) {
  await run(baseline, {}, WARMUP);
  await run(url, headers, WARMUP);
  const seconds = Math.max(1, Math.round(DURATION / ROUNDS));
  const app: Slice[] = [];
  const base: Slice[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push(await run(baseline, {}, seconds));
    app.push(await run(url, headers, seconds));
  }
  return { app: summarize(app), baseline: summarize(base) };
}

/** Sequential autosaves (each with the ETag of the last) interleaved with the cheapest POST. */
async function autosaveFigure(
  appUrl: string,
  headers: Record<string, string>,
  appointmentId: string,
) {
  const url = `${appUrl}/api/appointment/${appointmentId}/summary`;
  const first = await fetch(url, { headers });
  let etag = first.headers.get('etag') ?? '';
  await first.text();
  const save: number[] = [];
  const floor: number[] = [];
  const statuses = new Map<number, number>();
  const bodyBytes = Buffer.byteLength(JSON.stringify({ content: content(0) }));
  for (let i = 0; i < AUTOSAVES + 20; i++) {
    let t = performance.now();
    const res = await fetch(url, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ content: content(i) }),
    });
    await res.text();
    const saveMs = performance.now() - t;
    etag = res.headers.get('etag') ?? etag;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    t = performance.now();
    const login = await fetch(`${appUrl}/api/login`, { method: 'POST', headers });
    await login.text();
    const floorMs = performance.now() - t;
    if (i >= 20) {
      save.push(saveMs);
      floor.push(floorMs);
    }
  }
  const p95 = (xs: number[]) =>
    round(
      percentile(
        [...xs].sort((a, b) => a - b),
        95,
      ),
    );
  const ratio = round(p95(save) / p95(floor), 2);
  return {
    bodyBytes,
    saves: save.length,
    statuses: Object.fromEntries(statuses),
    autosaveP95Ms: p95(save),
    autosaveP50Ms: round(
      percentile(
        [...save].sort((a, b) => a - b),
        50,
      ),
    ),
    cheapestPostP95Ms: p95(floor),
    ratio,
    pass: ratio <= TARGET.autosaveVsCheapestPost,
  };
}

await onScratchDatabase('clinical', async ({ dbUrl, loader, startServers, writeReport }) => {
  const started = new Date();
  const { fixtures, timingsMs } = await loadBenchData(loader);
  const summaries = await loadSummaries(loader);
  timingsMs.billableItems = await drainBillableItems(dbUrl);
  log(
    `loaded: ${summaries.n} summaries in ${summaries.ms} ms (clients and appointments ${JSON.stringify(timingsMs)})`,
  );

  const { issuer, app, baseline } = await startServers(POOL_SIZE);
  const appUrl = `http://127.0.0.1:${app.message.port}`;
  const baselineUrl = `http://127.0.0.1:${baseline.message.port}/clients/${fixtures.someClientId}`;
  const sign = (sub: string, email: string) => issuer.sign({ sub, email, expiresIn: '2h' });
  // What the web app's openapi-fetch client sends.
  const headersOf = (token: string) => ({
    authorization: `Bearer ${token}`,
    accept: 'application/json',
    'accept-language': 'de-DE,de;q=0.9',
  });
  const adminHeaders = headersOf(await sign(fixtures.adminSubject, 'admin@bench.example'));
  const coachHeaders = headersOf(await sign(fixtures.coachSubject, 'coach01@bench.example'));

  const scenarios = [
    { name: 'incomplete.a.all', path: '/api/summaries/incomplete', headers: adminHeaders },
    { name: 'incomplete.b.coach', path: '/api/summaries/incomplete', headers: coachHeaders },
    {
      name: 'incomplete.c.filter',
      path: `/api/summaries/incomplete?coachId=${fixtures.coachId}`,
      headers: adminHeaders,
    },
    {
      name: 'incomplete.d.page20',
      path: '/api/summaries/incomplete?page=20&limit=50',
      headers: adminHeaders,
    },
  ].filter((s) => !ONLY || ONLY.some((o) => s.name.includes(o)));

  const results = [];
  for (const s of scenarios) {
    const probe = await fetch(appUrl + s.path, { headers: s.headers });
    const body = (await probe.json()) as { itemCount?: number; summaries?: unknown[] };
    if (probe.status !== 200) {
      log(`${s.name}: probe answered ${probe.status}`, body);
      results.push({ name: s.name, url: s.path, skipped: probe.status });
      continue;
    }
    const m = await paired(appUrl + s.path, s.headers, baselineUrl);
    const ratio = round(m.app.okRps / m.baseline.okRps, 3);
    const entry = {
      name: s.name,
      url: s.path,
      probe: { itemCount: body.itemCount, rows: body.summaries?.length },
      ...m.app,
      baseline: m.baseline,
      throughputVsBaseline: ratio,
      pass: {
        p95: m.app.latencyMs.p95 <= TARGET.p95Ms,
        throughput: ratio >= TARGET.throughputShare,
      },
    };
    log(
      `${s.name}: itemCount ${body.itemCount}; p50 ${entry.latencyMs.p50} / p95 ${entry.latencyMs.p95} / p99 ${entry.latencyMs.p99} ms, ` +
        `${entry.okRps} req/s (non-2xx ${entry.non2xx}), baseline ${m.baseline.okRps} req/s → ${(ratio * 100).toFixed(0)} % ${JSON.stringify(entry.pass)}`,
    );
    results.push(entry);
  }

  const autosave =
    ONLY && !ONLY.some((o) => 'autosave'.includes(o))
      ? undefined
      : await autosaveFigure(appUrl, adminHeaders, summaries.appointment_id);
  if (autosave) {
    log(
      `autosave ${autosave.bodyBytes} B: p95 ${autosave.autosaveP95Ms} ms vs POST /login p95 ${autosave.cheapestPostP95Ms} ms → ${autosave.ratio}× ${autosave.pass ? 'pass' : 'FAIL'}`,
      autosave.statuses,
    );
  }

  const report = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    targets: TARGET,
    settings: {
      connections: CONNECTIONS,
      durationS: DURATION,
      warmupS: WARMUP,
      rounds: ROUNDS,
      poolSize: POOL_SIZE,
      summaries: summaries.n,
      autosaves: AUTOSAVES,
    },
    machine: {
      cpus: os.cpus().length,
      node: process.version,
      loadAverage: os.loadavg().map((n) => round(n)),
    },
    scenarios: results,
    autosave,
  };
  writeReport(started, report);
});

