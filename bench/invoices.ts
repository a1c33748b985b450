/**
 * npm run bench:invoices — one invoice run of 1,000 approved items into 200 invoices (PDFs
 * included), timed per invoice, beside the floor of rendering the same 200 PDFs alone.
 *
 * 1. A scratch database spr_bench_invoices_<random> on DATABASE_URL's server (default
 *    postgres://postgres@127.0.0.1:5432), migrated; 200 clients with 5 past appointments and
 *    5 approved self-pay items each (every third item exempt), in SQL; VACUUM (ANALYZE).
 * 2. The real app as a child process (bench/servers/pair.ts), signed in as an ADMIN.
 * 3. POST /api/invoices/runs with the web app's headers (Bearer token, Accept,
 *    Accept-Language, Content-Type, Idempotency-Key), timed from the client until the run's
 *    invoices are there (200 payers are above INVOICE_RUN_SYNC_LIMIT: 202, then GET
 *    /api/invoices/runs/{id} every 250 ms until done, as the screen polls); then the floor:
 *    the same 200 documents rendered to PDF in this process, no database.
 * JSON to bench/results/invoices-<timestamp>.json and invoices-latest.json.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { loadConfig } from '../server/config';
import {
  defaultPractice,
  priceLines,
  renderInvoicePdf,
  totalsOf,
} from '../server/features/invoices/index';
import { machineBrief, reportHead, round, signedHeaders } from './common';
import { benchLog, onScratchDatabase } from './servers/scratch';

// The app child inherits this: a 200-invoice run answers in one response, which may take
// longer than the default idle timeout (2 min) on a busy machine.
process.env.HTTP_IDLE_TIMEOUT_MS ??= '600000';
const CLIENTS = 200;
const PER_CLIENT = 5;
/** The run may take this many times the PDF floor (numbers, rows, XML-less self-pay). */
const TARGET = { runVsPdfFloor: 3 };

const log = benchLog('invoices');

/**
 * One coach, an admin, 200 clients with an address, 1,000 past appointments (client i % 200,
 * two hours apart, so no overlap) and one approved self-pay item each, every third exempt.
 */
async function loadItems(client: pg.Client) {
  await client.query(`
    INSERT INTO coaches (first_name, last_name, email) VALUES ('Carla', 'Coach', 'coach@bench.example');
    INSERT INTO users (auth_subject, email, role, active) VALUES ('bench-admin', 'admin@bench.example', 'ADMIN', true);
    INSERT INTO clients (first_name, last_name, email, street, city, postal_code, country, created_at, updated_at)
    SELECT 'Klara', 'Müller ' || g, 'klient' || g || '@bench.example', 'Hauptstraße ' || g, 'Berlin', '10115', 'DE', now(), now()
      FROM generate_series(1, ${CLIENTS}) g;
    INSERT INTO appointments (client_id, coach_id, start_date, end_date, appointment_type, meeting_type,
      meeting_code_coach, meeting_code_client, video_room, appointment_number, no_show, created_at, updated_at)
    SELECT cl.ids[1 + i % ${CLIENTS}], co.id, now() - (i + 1) * interval '2 hours', now() - (i + 1) * interval '2 hours' + interval '50 minutes',
      'followup', 'jitsi',
      substr(md5('c' || i), 1, 4) || '-' || substr(md5('c' || i), 5, 4) || '-' || substr(md5('c' || i), 9, 4),
      substr(md5('k' || i), 1, 4) || '-' || substr(md5('k' || i), 5, 4) || '-' || substr(md5('k' || i), 9, 4),
      'bench-' || md5('r' || i), 1 + i / ${CLIENTS}, false, now() - interval '30 days', now() - interval '30 days'
      FROM generate_series(0, ${CLIENTS * PER_CLIENT - 1}) i,
           (SELECT array_agg(id ORDER BY last_name) AS ids FROM clients) cl,
           (SELECT id FROM coaches LIMIT 1) co;
    INSERT INTO billable_items (appointment_id, client_id, coach_id, appointment_type, description,
      amount_cents, vat_treatment, vat_rate_percent, vat_exemption_reason, payer_kind, service_date,
      status, approved_at, created_at, updated_at)
    SELECT a.id, a.client_id, a.coach_id, a.appointment_type,
      CASE WHEN a.n % 3 = 0 THEN 'Ärztliche Konsultation' ELSE 'Coaching-Folgetermin' END,
      CASE WHEN a.n % 3 = 0 THEN 8000 ELSE 11900 END,
      CASE WHEN a.n % 3 = 0 THEN 'exempt' ELSE 'standard' END,
      CASE WHEN a.n % 3 = 0 THEN 0 ELSE 19 END,
      CASE WHEN a.n % 3 = 0 THEN 'Steuerfreie Heilbehandlung gem. § 4 Nr. 14 a UStG' END,
      'client', (a.start_date AT TIME ZONE 'Europe/Berlin')::date, 'approved', a.end_date, a.end_date, a.end_date
    FROM (SELECT a.*, row_number() OVER (ORDER BY a.start_date) AS n FROM appointments a) a;
  `);
  await client.query('VACUUM (ANALYZE)');
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM billable_items WHERE status = 'approved'`,
  );
  return rows[0]!.n;
}

/** The same documents rendered alone: what the run cannot be faster than. */
async function pdfFloor(invoices: number) {
  const practice = defaultPractice(loadConfig({}));
  const inputs = Array.from({ length: PER_CLIENT }, (_, i) => ({
    billableItemId: randomUUID(),
    serviceDate: '2026-03-02',
    description: i % 3 === 0 ? 'Ärztliche Konsultation' : 'Coaching-Folgetermin',
    grossCents: i % 3 === 0 ? 8000 : 11900,
    vatTreatment: (i % 3 === 0 ? 'exempt' : 'standard') as 'exempt' | 'standard',
    vatRatePercent: i % 3 === 0 ? 0 : 19,
    vatExemptionReason: i % 3 === 0 ? 'Steuerfreie Heilbehandlung gem. § 4 Nr. 14 a UStG' : null,
  }));
  const t = performance.now();
  for (let i = 0; i < invoices; i++) {
    const { lines, vatGroups } = priceLines(inputs);
    await renderInvoicePdf(
      {
        number: `2026-${String(i + 1).padStart(5, '0')}`,
        kind: 'invoice',
        invoiceDate: '2026-03-31',
        dueDate: '2026-04-14',
        serviceFrom: '2026-03-02',
        serviceTo: '2026-03-30',
        recipient: {
          name: 'Klara Müller',
          street: 'Hauptstr. 1',
          postalCode: '10115',
          city: 'Berlin',
          country: 'DE',
          email: null,
          reference: null,
        },
        lines,
        vatGroups,
        ...totalsOf(vatGroups),
        cancels: null,
        cancellationReason: null,
      },
      practice,
    );
  }
  return performance.now() - t;
}

await onScratchDatabase('invoices', async ({ loader, startServers, writeReport }) => {
  const started = new Date();
  const items = await loadItems(loader);
  log(`loaded: ${items} approved items of ${CLIENTS} clients`);

  const { issuer, app } = await startServers(10);
  const appUrl = `http://127.0.0.1:${app.message.port}`;
  const headers = {
    ...(await signedHeaders(issuer, 'bench-admin', 'admin@bench.example')),
    'content-type': 'application/json',
    'idempotency-key': randomUUID(),
  };
  const t = performance.now();
  const res = await fetch(`${appUrl}/api/invoices/runs`, { method: 'POST', headers, body: '{}' });
  let body = (await res.json()) as {
    id?: string;
    status?: string;
    invoices?: unknown[];
    itemCount?: number;
  };
  // Above INVOICE_RUN_SYNC_LIMIT payers the run is a background job (202): poll it as the screen does.
  let polls = 0;
  while (res.status === 202 && body.status !== 'done' && body.status !== 'failed') {
    await new Promise((resolve) => setTimeout(resolve, 250));
    polls++;
    const poll = await fetch(`${appUrl}/api/invoices/runs/${body.id}`, {
      headers: { authorization: headers.authorization, accept: 'application/json' },
    });
    body = (await poll.json()) as typeof body;
  }
  const runMs = performance.now() - t;
  const invoices = body.invoices?.length ?? 0;
  log(
    `run: ${res.status}, ${body.itemCount} items into ${invoices} invoices in ${round(runMs, 0)} ms`,
  );
  const { rows } = await loader.query<{ bytes: number }>(
    'SELECT avg(octet_length(pdf))::int AS bytes FROM invoices',
  );

  const floorMs = await pdfFloor(Math.max(invoices, 1));
  const perInvoice = round(runMs / Math.max(invoices, 1));
  const floorPerInvoice = round(floorMs / Math.max(invoices, 1));
  const ratio = round(perInvoice / floorPerInvoice);
  log(
    `per invoice: run ${perInvoice} ms, PDF alone ${floorPerInvoice} ms → ${ratio}× ${ratio <= TARGET.runVsPdfFloor ? 'pass' : 'FAIL'}`,
  );

  const report = {
    ...reportHead(started, TARGET),
    settings: { clients: CLIENTS, itemsPerClient: PER_CLIENT, items },
    machine: machineBrief(),
    run: {
      status: res.status,
      job: res.status === 202 ? { status: body.status, polls } : null,
      itemCount: body.itemCount,
      invoices,
      totalMs: round(runMs, 0),
      msPerInvoice: perInvoice,
      avgPdfBytes: rows[0]?.bytes,
    },
    pdfFloor: { totalMs: round(floorMs, 0), msPerInvoice: floorPerInvoice },
    runVsPdfFloor: ratio,
    pass:
      ratio <= TARGET.runVsPdfFloor &&
      (res.status === 201 || (res.status === 202 && body.status === 'done')) &&
      invoices === CLIENTS,
  };
  writeReport(started, report);
});
