/**
 * npm run bench:research — the research export of 50,000 clients and 500,000 appointments:
 * time, size and the app process's memory while it streams the ZIP.
 *
 * 1. A scratch database spr_bench_research_<random> (DATABASE_URL's server, default
 *    postgres://postgres@127.0.0.1:5432), migrated; 50 coaches, 50,000 clients who all
 *    consented to research (varied birth years, postal codes, insurers, campaigns) and 500,000
 *    appointments (10 per client, one-hour slots per coach so none overlap), each generated in
 *    one INSERT … SELECT generate_series; VACUUM (ANALYZE).
 * 2. The real app as a child process (bench/servers/pair.ts, with a pseudonym key set).
 * 3. GET /api/admin/export-research-data with the web app's headers, read to the end; the
 *    child's VmRSS is sampled every 50 ms from /proc/<pid>/status before and during, and its
 *    VmHWM (peak) read at the end. Target: RSS growth ≤ 100 MB.
 * JSON to bench/results/research-<timestamp>.json and research-latest.json; the database is
 * dropped unless BENCH_KEEP_DB=1.
 */
import { readFileSync } from 'node:fs';
import { CAMPAIGNS, INSURERS } from '../server/seed/data';
import { machineBrief, round, signedHeaders } from './common';
import { benchLog, onScratchDatabase } from './servers/scratch';

const CLIENTS = Number(process.env.BENCH_CLIENTS) || 50_000;
const PER_CLIENT = 10;
const COACHES = 50;
const TARGET = { rssGrowthMb: 100 };
const log = benchLog('research');

const list = (values: readonly (string | null)[]) =>
  `ARRAY[${values.map((v) => (v === null ? 'NULL' : `'${v.replace(/'/g, "''")}'`)).join(', ')}]::text[]`;

/** Resident and peak memory of a process, in kB (Linux). */
function memoryOf(pid: number): { rssKb: number; hwmKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
}

// The key the app child uses (it runs with NODE_ENV=production, so it needs one).
process.env.RESEARCH_PSEUDONYM_KEY ??= 'bench-research-pseudonym-key-0123456789abcdef';

await onScratchDatabase('research', async ({ loader, startServers, writeReport }) => {
  const started = new Date();
  const timingsMs: Record<string, number> = {};
  const step = async (name: string, text: string) => {
    const t = performance.now();
    await loader.query(text);
    timingsMs[name] = Math.round(performance.now() - t);
    log(`${name}: ${timingsMs[name]} ms`);
  };
  const campaigns = [...CAMPAIGNS.map((c) => c.code), null, null];
  await step(
    'coaches+admin',
    `INSERT INTO coaches (first_name, last_name, email)
       SELECT 'Coach', 'Nr. ' || g, 'coach' || g || '@bench.example' FROM generate_series(1, ${COACHES}) g;
     INSERT INTO users (auth_subject, email, role, active) VALUES ('bench-admin', 'admin@bench.example', 'ADMIN', true);`,
  );
  await step(
    'clients',
    `INSERT INTO clients (first_name, last_name, email, year_of_birth, street, city, postal_code, country,
       telephone, insurer, insurer_code, campaign, client_type, paid_by_sponsor, mental_stress_indicator,
       sessions_closed_on, wants_to_provide_recordings_for_research, notes, created_at, updated_at)
     SELECT 'Vorname' || g, 'Nachname' || g, 'klient' || g || '@bench.example',
       1940 + (g * 31) % 66, 'Hauptstraße ' || (1 + g % 120), 'Stadt', lpad((1000 + (g * 37) % 98999)::text, 5, '0'), 'DE',
       '0151 ' || lpad(g::text, 7, '0'),
       (${list(INSURERS.map((i) => i.name))})[1 + (g * 7) % ${INSURERS.length}],
       chr(65 + g % 26) || lpad(((g::bigint * 104729) % 1000000000)::text, 9, '0'),
       (${list(campaigns)})[1 + (g * 11) % ${campaigns.length}],
       CASE WHEN g % 10 = 0 THEN 'relative' ELSE 'self' END,
       g % 9 = 0, g % 11,
       CASE WHEN g % 15 = 0 THEN now() - interval '10 days' END,
       true, 'Notiz ' || g,
       now() - interval '4 years' - g * interval '20 minutes', now()
     FROM generate_series(1, ${CLIENTS}) g`,
  );
  // Appointment i: client c = i / 10 (number i % 10 + 1), coach i % 50, slot i / 50 → its own hour.
  await step(
    'appointments',
    `WITH cl AS (SELECT array_agg(id ORDER BY id) AS ids FROM clients),
          co AS (SELECT array_agg(id ORDER BY email) AS ids FROM coaches)
     INSERT INTO appointments (client_id, coach_id, start_date, end_date, appointment_type, meeting_code_coach,
       meeting_code_client, video_room, appointment_number, no_show, cancelled_at, created_at, updated_at)
     SELECT cl.ids[1 + i / ${PER_CLIENT}], co.ids[1 + i % ${COACHES}], s, s + interval '50 minutes',
       (ARRAY['initial', 'first', 'followup', 'followup', 'followup', 'followup', 'first-arztkonsultation',
              'followup', 'followup-arztkonsultation', 'followup'])[1 + i % ${PER_CLIENT}],
       'c' || i, 'k' || i, 'bench-' || i, 1 + i % ${PER_CLIENT},
       i % 17 = 0, CASE WHEN i % 13 = 0 THEN s - interval '1 day' END, s - interval '7 days', s - interval '7 days'
     FROM generate_series(0, ${CLIENTS * PER_CLIENT - 1}) i, cl, co,
          LATERAL (SELECT now() - interval '4 years' + (i / ${COACHES}) * interval '1 hour' AS s) t`,
  );
  await step('vacuum analyze', 'VACUUM (ANALYZE)');

  const { issuer, app } = await startServers(4);
  const pid = app.child.pid!;
  const appUrl = `http://127.0.0.1:${app.message.port}`;
  const headers = await signedHeaders(issuer, 'bench-admin', 'admin@bench.example');

  // Warm the app (routes, token check, a first query) so start-up allocations are not counted.
  const summary = (await (
    await fetch(`${appUrl}/api/admin/research-export/summary`, { headers })
  ).json()) as {
    participants: number;
    appointments: number;
  };
  log('summary', summary);
  await new Promise((r) => setTimeout(r, 1000));
  const before = memoryOf(pid);
  let peakRssKb = before.rssKb;
  const sampler = setInterval(() => {
    try {
      peakRssKb = Math.max(peakRssKb, memoryOf(pid).rssKb);
    } catch {
      // The child is gone; the request fails on its own.
    }
  }, 50);

  const t = performance.now();
  const res = await fetch(`${appUrl}/api/admin/export-research-data`, { headers });
  let bytes = 0;
  let firstBytes = '';
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstBytes) firstBytes = Buffer.from(value.subarray(0, 2)).toString('latin1');
    bytes += value.length;
  }
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  const after = memoryOf(pid);
  peakRssKb = Math.max(peakRssKb, after.rssKb);
  const growthMb = round((peakRssKb - before.rssKb) / 1024, 1);

  const report = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    target: TARGET,
    status: res.status,
    contentDisposition: res.headers.get('content-disposition'),
    zip: firstBytes === 'PK',
    seconds: round(seconds, 2),
    bytes,
    participants: summary.participants,
    appointments: summary.appointments,
    rssMb: {
      before: round(before.rssKb / 1024, 1),
      peakSampled: round(peakRssKb / 1024, 1),
      after: round(after.rssKb / 1024, 1),
      processHighWaterMark: round(after.hwmKb / 1024, 1),
      growth: growthMb,
    },
    pass: res.status === 200 && growthMb <= TARGET.rssGrowthMb,
    loadMs: timingsMs,
    machine: machineBrief(),
  };
  writeReport(started, report);
});
