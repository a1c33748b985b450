/**
 * npm run bench:mail-drain — how fast a backlog of queued mail goes out. Needs PostgreSQL like
 * `npm run bench` (DATABASE_URL or the local server; a scratch database spr_drain_<random>,
 * dropped afterwards) and starts a local SMTP sink in a child process
 * (bench/servers/smtp-sink.ts).
 *
 * 1. `BENCH_MESSAGES` (1,000) mails are stored as queued communications with a delivery job
 *    each, as an appointment change stores them, while no worker runs (the backlog an SMTP
 *    outage leaves).
 * 2. **drain**: the app's job workers start (server/jobs, as `npm start` runs them) and the
 *    clock runs until every communication is `sent`.
 * 3. **floor**, before and after the drain: the same number of mails of the same size sent
 *    straight through nodemailer, with the mailer's transport settings and as many sends in
 *    flight as the workers allow, without database or queue. The faster run is the floor.
 *
 * 4. **outage**: `BENCH_OUTAGE_MESSAGES` (500) mails are queued while the mail server is down
 *    (nothing listens on its port). The workers try each once (refused) and the next tries
 *    are put 10 to 60 minutes ahead, where a long outage's backoff has them. Then the SMTP sink
 *    comes up on that port: the time until every mail is `sent` is the drain after an outage
 *    (aim under 10 s; waiting for each message's own next try would take up to an hour), and
 *    the sink counts mails sent twice (the same Message-ID).
 *
 * Prints JSON (messages, seconds, messages/s, floor, ratio, outage) and writes it to
 * bench/results/mail-drain-latest.json.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { smtpTransportOptions } from '../server/adapters/mail/mailer';
import { loadConfig } from '../server/config';
import { connectPostgres } from '../server/db/client';
import { communications } from '../server/db/schema/index';
import { DELIVER_JOB, DELIVER_WORK } from '../server/features/notifications/index';
import { startAppJobs } from '../server/app-jobs';
import { JOBS_SCHEMA } from '../server/jobs/queue';
import { freePort } from '../server/testing/scratch-postgres';
import { startChild, stopChild } from './servers/child';

const messages = Number(process.env.BENCH_MESSAGES ?? 1000);
const outageMessages = Number(process.env.BENCH_OUTAGE_MESSAGES ?? 500);
const outageTimeoutSeconds = Number(process.env.BENCH_OUTAGE_TIMEOUT ?? 180);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (since: number) => (performance.now() - since) / 1000;

const { child: sink, message } = await startChild<{ port: number }>(
  path.join(import.meta.dirname, 'servers/smtp-sink.ts'),
);
const smtpUrl = `smtp://127.0.0.1:${message.port}`;

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `spr_drain_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const database = connectPostgres(url.toString(), 10);

// About the size of an appointment confirmation (subject, ~1 kB of German text).
const text = `Guten Tag,\n\nIhr Termin ist bestätigt. ${'Bitte halten Sie Ihre Unterlagen bereit. '.repeat(24)}\n\nIhre Praxis`;
const subject = 'Ihr Termin am Dienstag, 3. Dezember 2030, 14:30 Uhr';
const inFlight = DELIVER_WORK.batchSize * DELIVER_WORK.concurrency;

/** The same mails straight through nodemailer, `inFlight` at a time. */
async function floor() {
  const transport = nodemailer.createTransport(smtpTransportOptions(smtpUrl));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < messages) {
        const i = next++;
        await transport.sendMail({
          from: 'Sprechstunde <no-reply@sprechstunde.invalid>',
          to: `floor-${i}@bench.example`,
          subject,
          text,
        });
      }
    }),
  );
  const s = seconds(started);
  transport.close();
  return { seconds: round(s), messagesPerSecond: Math.round(messages / s) };
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Mails queued during an outage, then the mail server comes back (step 4). */
async function afterOutage() {
  const port = await freePort();
  const outageConfig = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    DATABASE_URL: url.toString(),
  });
  const enqueue = await startAppJobs({ db: database.db, config: outageConfig, workers: false });
  const ids = await database.db.transaction(async (tx) => {
    const rows = await tx
      .insert(communications)
      .values(
        Array.from({ length: outageMessages }, (_, i) => ({
          channel: 'email' as const,
          template: 'bench-outage',
          recipient: `outage-${i}@bench.example`,
          subject,
          body: text,
          status: 'queued' as const,
        })),
      )
      .returning({ id: communications.id });
    for (const row of rows) await enqueue.send(tx, DELIVER_JOB, { communicationId: row.id });
    return rows.map((r) => r.id);
  });
  await enqueue.stop();

  const workers = await startAppJobs({ db: database.db, config: outageConfig, workers: true });
  let t = performance.now();
  // Every mail's first try meets the closed port.
  while ((await workers.retrying(DELIVER_JOB)) < outageMessages) {
    if (seconds(t) > 120) throw new Error('the first tries did not fail within 120 s');
    await sleep(200);
  }
  // Where a long outage's backoff has the next tries: 10 to 60 minutes ahead.
  await database.db.execute(
    sql.raw(
      `UPDATE ${JOBS_SCHEMA}.job SET start_after = now() + (10 + random() * 50) * interval '1 minute' WHERE name = '${DELIVER_JOB}' AND state = 'retry'`,
    ),
  );
  const sentOfOutage = async () =>
    (
      await database.db
        .select({ n: count() })
        .from(communications)
        .where(
          sql`${communications.template} = 'bench-outage' AND ${communications.status} = 'sent'`,
        )
    )[0]!.n;

  const { child, message: up } = await startChild<{ port: number }>(
    path.join(import.meta.dirname, 'servers/smtp-sink.ts'),
    { SMTP_SINK_PORT: String(port) },
  );
  if (up.port !== port) throw new Error('the sink did not take the mail server’s port');
  t = performance.now();
  let sent = await sentOfOutage();
  while (sent < ids.length && seconds(t) < outageTimeoutSeconds) {
    await sleep(100);
    sent = await sentOfOutage();
  }
  const drained = sent === ids.length ? seconds(t) : null;
  await workers.stop();
  const counts = await new Promise<{ received: number; duplicates: number }>((resolve) => {
    child.once('message', (m) => resolve(m as { received: number; duplicates: number }));
    child.send('count');
  });
  await stopChild(child);
  return {
    messages: ids.length,
    probeSeconds: outageConfig.MAIL_PROBE_SECONDS,
    drainSeconds: drained === null ? null : round(drained),
    sentWithinTimeout: sent,
    timeoutSeconds: outageTimeoutSeconds,
    received: counts.received,
    duplicates: counts.duplicates,
  };
}

try {
  await database.migrate();
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    SMTP_URL: smtpUrl,
    DATABASE_URL: url.toString(),
  });

  const floorBefore = await floor();

  // The backlog, queued while no worker runs.
  const enqueue = await startAppJobs({ db: database.db, config, workers: false });
  let t = performance.now();
  await database.db.transaction(async (tx) => {
    const rows = await tx
      .insert(communications)
      .values(
        Array.from({ length: messages }, (_, i) => ({
          channel: 'email' as const,
          template: 'bench',
          recipient: `drain-${i}@bench.example`,
          subject,
          body: text,
          status: 'queued' as const,
        })),
      )
      .returning({ id: communications.id });
    for (const row of rows) await enqueue.send(tx, DELIVER_JOB, { communicationId: row.id });
  });
  const queuedSeconds = seconds(t);
  await enqueue.stop();

  const sent = async () =>
    (
      await database.db
        .select({ n: count() })
        .from(communications)
        .where(eq(communications.status, 'sent'))
    )[0]!.n;
  t = performance.now();
  const workers = await startAppJobs({ db: database.db, config, workers: true });
  const startSeconds = seconds(t);
  while ((await sent()) < messages) {
    if (seconds(t) > 600) throw new Error(`not drained after 600 s: ${await sent()} sent`);
    await sleep(100);
  }
  const drainSeconds = seconds(t);
  await workers.stop();
  const failed = messages - (await sent());

  const outage = await afterOutage();
  const floorAfter = await floor();
  const floorSeconds = Math.min(floorBefore.seconds, floorAfter.seconds);
  const report = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, load1: os.loadavg()[0] },
    messages,
    workers: { ...DELIVER_WORK, inFlight },
    drain: {
      seconds: round(drainSeconds),
      messagesPerSecond: Math.round(messages / drainSeconds),
      workerStartSeconds: round(startSeconds),
      failed,
    },
    queueBacklogSeconds: round(queuedSeconds),
    floor: { seconds: floorSeconds, before: floorBefore, after: floorAfter },
    ratio: round(drainSeconds / floorSeconds),
    outage,
  };
  const json = JSON.stringify(report, null, 2);
  writeFileSync(path.join(import.meta.dirname, 'results/mail-drain-latest.json'), `${json}\n`);
  console.log(json);
} finally {
  await database.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  await stopChild(sink);
}
