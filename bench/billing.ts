/**
 * npm run bench:billing — GET /billable-items on 200,000 items, and a batch approve of 1,000.
 *
 * 1. A scratch database spr_bench_billing_<random> on DATABASE_URL's server (default
 *    postgres://postgres@127.0.0.1:5432), migrated; the list bench's 50,000 clients and
 *    100,000 appointments (bench/load.ts), 100,000 more appointments 40 weeks earlier, and one
 *    item per appointment (200,000) in one INSERT … SELECT; VACUUM (ANALYZE).
 * 2. The real app and the bare Fastify + pg baseline as child processes (as bench/run.ts).
 * 3. Each list scenario with the web app's headers (Bearer token, Accept, Accept-Language):
 *    warm-up, then BENCH_ROUNDS short runs in turns with the baseline; p50/p95/p99 per
 *    response, okRps and the ratio to the baseline's okRps in the same minutes.
 * 4. Batch approve: BENCH_BATCH_ROUNDS times, PUT /billable-items/batch-approve with 1,000
 *    pending ids (one business event each) beside one plain SQL UPDATE of 1,000 other
 *    pending rows (same columns), each timed from the client.
 * JSON to bench/results/billing-<timestamp>.json and billing-latest.json; the database is
 * dropped unless BENCH_KEEP_DB=1.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { drainBillableItems, loadBenchData } from './load';
import {
  billableItemScenarios,
  billableItemsPath,
  env,
  loadSettings,
  measureListScenario,
  machineBrief,
  monthsAgo,
  POOL_SIZE,
  reportHead,
  round,
  signedHeaders,
} from './common';
import { benchLog, onScratchDatabase } from './servers/scratch';

const BATCH_ROUNDS = env('BENCH_BATCH_ROUNDS', 5);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const TARGET = { p95Ms: 20, throughputShare: 0.5, batchVsUpdate: 5 };

const log = benchLog('billing');

/** 100,000 more appointments, 40 weeks before the list bench's, then one item for each. */
async function loadItems(client: pg.Client) {
  const t = performance.now();
  await client.query(`
    INSERT INTO appointments (client_id, coach_id, start_date, end_date, appointment_type, meeting_type,
      meeting_code_coach, meeting_code_client, video_room, appointment_number, no_show, cancelled_at,
      created_at, updated_at)
    SELECT client_id, coach_id, start_date - interval '280 days', end_date - interval '280 days',
      appointment_type, meeting_type, substr(md5('x' || id), 1, 4) || '-' || substr(md5('x' || id), 5, 4) || '-' || substr(md5('x' || id), 9, 4),
      substr(md5('y' || id), 1, 4) || '-' || substr(md5('y' || id), 5, 4) || '-' || substr(md5('y' || id), 9, 4),
      'bench-' || md5('z' || id), appointment_number + 2, no_show, NULL,
      created_at - interval '280 days', updated_at - interval '280 days'
    FROM appointments`);
  // Status by a hash of the appointment: 30 % pending, 8 % failed, 20 % approved, 35 %
  // invoiced, 7 % cancelled; payer 60 % client, 15 % sponsor, 20 % statutory, 5 % private.
  await client.query(`
    INSERT INTO billable_items (appointment_id, client_id, coach_id, appointment_type, description,
      amount_cents, payer_kind, insurer, service_date, status, validation_errors, approved_at,
      invoice_sent_at, cancelled_at, created_at, updated_at)
    SELECT a.id, a.client_id, a.coach_id, a.appointment_type, 'Termin', 8000 + (h % 8) * 1000,
      CASE WHEN p < 60 THEN 'client' WHEN p < 75 THEN 'sponsor' WHEN p < 95 THEN 'statutory_insurer' ELSE 'private_insurer' END,
      c.insurer, (a.start_date AT TIME ZONE 'Europe/Berlin')::date, s,
      CASE WHEN s = 'validation_failed' THEN '[{"code":"missing_address","message":"Anschrift fehlt."}]'::jsonb ELSE '[]'::jsonb END,
      CASE WHEN s IN ('approved', 'invoice_sent') THEN a.end_date END,
      CASE WHEN s = 'invoice_sent' THEN a.end_date END,
      CASE WHEN s = 'cancelled' THEN a.end_date END,
      a.end_date, a.end_date
    FROM (SELECT a.*, abs(hashtext(a.id::text)) AS h, abs(hashtext('p' || a.id)) % 100 AS p,
            CASE WHEN abs(hashtext('s' || a.id)) % 100 < 30 THEN 'pending'
                 WHEN abs(hashtext('s' || a.id)) % 100 < 38 THEN 'validation_failed'
                 WHEN abs(hashtext('s' || a.id)) % 100 < 58 THEN 'approved'
                 WHEN abs(hashtext('s' || a.id)) % 100 < 93 THEN 'invoice_sent'
                 ELSE 'cancelled' END AS s
          FROM appointments a) a
    JOIN clients c ON c.id = a.client_id`);
  await client.query('VACUUM (ANALYZE)');
  const { rows } = await client.query<{ n: number; client_id: string; insurer: string }>(`
    SELECT (SELECT count(*)::int FROM billable_items) AS n,
      (SELECT client_id FROM billable_items ORDER BY id LIMIT 1) AS client_id,
      (SELECT insurer FROM billable_items WHERE insurer IS NOT NULL ORDER BY id LIMIT 1) AS insurer`);
  return { ms: Math.round(performance.now() - t), ...rows[0]! };
}

/** Batch approve over HTTP beside a plain UPDATE of as many other pending rows. */
async function batchFigure(client: pg.Client, appUrl: string, headers: Record<string, string>) {
  const rounds: { batchMs: number; status: number; updateMs: number }[] = [];
  for (let i = 0; i < BATCH_ROUNDS; i++) {
    const { rows } = await client.query<{ id: string }>(
      `SELECT id FROM billable_items WHERE status = 'pending' ORDER BY id LIMIT 2000`,
    );
    const ids = rows.map((r) => r.id);
    let t = performance.now();
    const res = await fetch(`${appUrl}/api/billable-items/batch-approve`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ ids: ids.slice(0, 1000) }),
    });
    await res.text();
    const batchMs = performance.now() - t;
    t = performance.now();
    await client.query(
      `UPDATE billable_items SET status = 'approved', approved_at = now(), updated_at = now() WHERE id = ANY($1::uuid[])`,
      [ids.slice(1000, 2000)],
    );
    const updateMs = performance.now() - t;
    rounds.push({ batchMs: round(batchMs, 1), status: res.status, updateMs: round(updateMs, 1) });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const batchMs = median(rounds.map((r) => r.batchMs));
  const updateMs = median(rounds.map((r) => r.updateMs));
  const ratio = round(batchMs / updateMs, 2);
  return {
    rounds,
    medianBatchMs: batchMs,
    medianUpdateMs: updateMs,
    ratio,
    pass: ratio <= TARGET.batchVsUpdate,
  };
}

await onScratchDatabase('billing', async ({ dbUrl, loader, startServers, writeReport }) => {
  const started = new Date();
  const { fixtures, timingsMs } = await loadBenchData(loader);
  const items = await loadItems(loader);
  // A running server has long caught up with its item job; measure that state, not the catch-up.
  timingsMs.billableItems = await drainBillableItems(dbUrl);
  log(
    `loaded: ${items.n} items in ${items.ms} ms (clients and appointments ${JSON.stringify(timingsMs)})`,
  );

  const { issuer, app, baseline } = await startServers(POOL_SIZE);
  const appUrl = `http://127.0.0.1:${app.message.port}`;
  const baselineUrl = `http://127.0.0.1:${baseline.message.port}/clients/${fixtures.someClientId}`;
  const headers = await signedHeaders(issuer, fixtures.adminSubject, 'admin@bench.example');

  const now = Date.now();
  const scenarios: { name: string; path: string; nextPath?: () => string }[] = [
    ...billableItemScenarios({
      coachId: fixtures.coachId,
      clientId: items.client_id,
      insurer: items.insurer,
    }).map((s) => ({ ...s, name: `items.${s.name}` })),
    // Diagnostic: a new date range on every request, so no filtered totals are remembered:
    // what the tabs cost right after an item write, under a quarter's range.
    (() => {
      let n = 0;
      const next = () =>
        billableItemsPath({
          status: 'pending',
          fromDate: monthsAgo(6, now),
          toDate: monthsAgo(3 - (++n % 60) / 30, now),
        });
      return { name: 'items.i.quarterUncounted', path: next(), nextPath: next };
    })(),
  ].filter((s) => !ONLY || ONLY.some((o) => s.name.includes(o)));

  const results = [];
  for (const s of scenarios)
    results.push(
      await measureListScenario(
        { ...s, headers },
        { appUrl, baselineUrl, rowsKey: 'billableItems' },
        TARGET,
        log,
      ),
    );

  const batch =
    ONLY && !ONLY.some((o) => 'batch'.includes(o))
      ? undefined
      : await batchFigure(loader, appUrl, headers);
  if (batch)
    log(
      `batch approve 1,000: median ${batch.medianBatchMs} ms vs plain UPDATE ${batch.medianUpdateMs} ms → ${batch.ratio}× ${batch.pass ? 'pass' : 'FAIL'}`,
      batch.rounds,
    );

  const report = {
    ...reportHead(started, TARGET),
    settings: { ...loadSettings(), items: items.n },
    machine: machineBrief(),
    scenarios: results,
    batchApprove1000: batch,
  };
  writeReport(started, report);
});
