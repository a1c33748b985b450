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
import type pg from 'pg';
import { drainBillableItems, loadBenchData } from './load';
import {
  env,
  loadSettings,
  measureListScenario,
  machineBrief,
  percentile,
  POOL_SIZE,
  reportHead,
  round,
  signedHeaders,
} from './common';
import { benchLog, onScratchDatabase } from './servers/scratch';

const AUTOSAVES = env('BENCH_AUTOSAVES', 300);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const TARGET = { p95Ms: 20, throughputShare: 0.5, autosaveVsCheapestPost: 3 };

const log = benchLog('clinical');

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
  const adminHeaders = await signedHeaders(issuer, fixtures.adminSubject, 'admin@bench.example');
  const coachHeaders = await signedHeaders(issuer, fixtures.coachSubject, 'coach01@bench.example');

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
  for (const s of scenarios)
    results.push(
      await measureListScenario(s, { appUrl, baselineUrl, rowsKey: 'summaries' }, TARGET, log),
    );

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
    ...reportHead(started, TARGET),
    settings: { ...loadSettings(), summaries: summaries.n, autosaves: AUTOSAVES },
    machine: machineBrief(),
    scenarios: results,
    autosave,
  };
  writeReport(started, report);
});
