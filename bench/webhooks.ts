/**
 * npm run bench:webhooks — webhook fan-out: BENCH_CHANGES (1,000) appointment bookings through
 * the API with an `appointment.created` webhook on a local receiver.
 *
 * 1. A scratch database spr_bench_webhooks_<random> on DATABASE_URL's server (default
 *    postgres://postgres@127.0.0.1:5432), migrated; dropped at the end.
 * 2. The real app as a child process (bench/servers/app.ts, job workers on, private targets
 *    allowed for the receiver on 127.0.0.1), and a receiver in this process that verifies
 *    every request with the `standardwebhooks` library and notes when it arrived.
 * 3. A SUPERADMIN sets the webhook (the secret comes back once); then the bookings,
 *    BENCH_CONCURRENCY (10) at a time, with the web app's headers (Bearer token, Accept,
 *    Accept-Language, Content-Type, Idempotency-Key).
 * 4. Waits until every booking's webhook arrived (or 120 s).
 *
 * Figures: deliveries (distinct webhook-ids), duplicates, bad signatures; delivery lag per
 * booking (answer of the POST → arrival at the receiver) p50/p95/max; beside it the job
 * queue's own latency for the same jobs (pg-boss created_on → started_on) p50/p95/max.
 * Floor: every booking delivered exactly once with a valid signature, lag p95 ≤ queue p95 +
 * 250 ms (the send itself). JSON to bench/results/webhooks-latest.json.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../server/config';
import { connectPostgres } from '../server/db/client';
import { createTestIssuer } from '../server/testing/test-auth';
import { webAppHeaders } from './common';
import { startChild, stopChild } from './servers/child';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const SEND_ALLOWANCE_MS = 250;

const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `spr_bench_webhooks_${randomBytes(4).toString('hex')}`;
const dbUrl = (() => {
  const u = new URL(server);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const log = (...args: unknown[]) =>
  console.error(`[bench:webhooks ${(performance.now() / 1000).toFixed(1)}s]`, ...args);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? NaN),
  };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The receiver: verifies each request with the library, notes arrival per appointment. */
function startReceiver(secret: () => string) {
  const arrivals = new Map<string, number>();
  const ids = new Map<string, number>();
  let badSignatures = 0;
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const at = performance.now() + performance.timeOrigin;
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const payload = new Webhook(secret()).verify(
          body,
          request.headers as Record<string, string>,
        ) as {
          data: { appointmentId: string };
        };
        arrivals.set(payload.data.appointmentId, at);
        const id = String(request.headers['webhook-id']);
        ids.set(id, (ids.get(id) ?? 0) + 1);
        response.writeHead(204).end();
      } catch {
        badSignatures++;
        response.writeHead(400).end();
      }
    });
  });
  return {
    arrivals,
    ids,
    badSignatures: () => badSignatures,
    listen: () =>
      new Promise<number>((resolve) =>
        receiver.listen(0, '127.0.0.1', () => resolve((receiver.address() as AddressInfo).port)),
      ),
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}

const admin = new pg.Client({ connectionString: server });
let app: Awaited<ReturnType<typeof startChild<{ port: number }>>> | undefined;
let created = false;

async function main() {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  created = true;
  const database = connectPostgres(dbUrl, 2);
  await database.migrate();
  await database.close();

  const config = loadConfig({});
  const issuer = await createTestIssuer(config.AUTH_ISSUER, config.AUTH_AUDIENCE);
  const loader = new pg.Client({ connectionString: dbUrl });
  loader.on('error', () => {}); // the database is dropped with FORCE at the end
  await loader.connect();
  const subject = randomUUID();
  await loader.query(
    `INSERT INTO users (auth_subject, email, role, active) VALUES ($1, 'root@bench.example', 'SUPERADMIN', true)`,
    [subject],
  );

  let secret = '';
  const receiver = startReceiver(() => secret);
  const receiverPort = await receiver.listen();

  app = await startChild<{ port: number }>(path.join(import.meta.dirname, 'servers/app.ts'), {
    DATABASE_URL: dbUrl,
    DATABASE_POOL_SIZE: '10',
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    BENCH_JWKS: JSON.stringify(issuer.jwks),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    JOBS_WORKERS: 'true',
  });
  const appUrl = `http://127.0.0.1:${app.message.port}`;
  const token = await issuer.sign({ sub: subject, email: 'root@bench.example', expiresIn: '2h' });
  // What the web app's openapi-fetch client sends with a write.
  const headers = () => ({
    ...webAppHeaders(token),
    'content-type': 'application/json',
    'idempotency-key': randomUUID(),
  });
  const post = async (url: string, body: unknown) => {
    const res = await fetch(appUrl + url, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  const hook = await post('/api/admin/webhook/appointment.created', {
    url: `http://127.0.0.1:${receiverPort}/hook`,
    active: true,
  });
  secret = hook.secret as string;
  const coach = await post('/api/coach', {
    firstName: 'Bench',
    lastName: 'Coach',
    email: 'coach@bench.example',
  });
  const client = await post('/api/admin/client', { firstName: 'Bench', lastName: 'Klient' });

  // One booking per half hour from tomorrow on: no two overlap.
  const base = Date.UTC(new Date().getUTCFullYear() + 1, 0, 5, 6);
  const answered = new Map<string, number>();
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CHANGES) {
        const i = next++;
        const start = base + i * 30 * 60_000;
        const appointment = await post('/api/appointment', {
          clientId: client.id,
          coachId: coach.id,
          startDate: new Date(start).toISOString(),
          endDate: new Date(start + 25 * 60_000).toISOString(),
          appointmentType: 'followup',
        });
        answered.set(appointment.id as string, performance.now() + performance.timeOrigin);
      }
    }),
  );
  const bookingSeconds = (performance.now() - t) / 1000;
  log(`${CHANGES} bookings in ${round(bookingSeconds)} s`);
  while (receiver.arrivals.size < CHANGES && performance.now() - t < 120_000) await sleep(50);
  const drainSeconds = (performance.now() - t) / 1000;
  await sleep(1000); // late duplicates would show here

  const lags = [...answered].flatMap(([id, at]) => {
    const arrived = receiver.arrivals.get(id);
    return arrived === undefined ? [] : [arrived - at];
  });
  const { rows } = await loader.query<{ ms: number }>(
    `SELECT EXTRACT(EPOCH FROM (started_on - created_on)) * 1000 AS ms
       FROM pgboss.job WHERE name = 'deliver-webhook' AND started_on IS NOT NULL`,
  );
  const queue = stats(rows.map((r) => Number(r.ms)));
  const lag = stats(lags);
  const duplicates = [...receiver.ids.values()].filter((n) => n > 1).length;
  const delivered = receiver.ids.size;
  const pass =
    delivered === CHANGES &&
    duplicates === 0 &&
    receiver.badSignatures() === 0 &&
    lag.p95 <= queue.p95 + SEND_ALLOWANCE_MS;
  const report = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, load1: round(os.loadavg()[0]!, 2) },
    changes: CHANGES,
    concurrency: CONCURRENCY,
    bookingSeconds: round(bookingSeconds, 2),
    drainSeconds: round(drainSeconds, 2),
    delivered,
    duplicates,
    badSignatures: receiver.badSignatures(),
    deliveryLagMs: lag,
    jobQueueLatencyMs: queue,
    floor: { allDeliveredOnce: true, lagP95AtMostQueueP95PlusMs: SEND_ALLOWANCE_MS },
    pass,
  };
  await loader.end();
  await receiver.close();
  const json = JSON.stringify(report, null, 2);
  writeFileSync(path.join(import.meta.dirname, 'results/webhooks-latest.json'), `${json}\n`);
  console.log(json);
  if (!pass) console.log('FAIL');
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stopChild(app?.child);
  if (created) await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}
