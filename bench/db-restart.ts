/**
 * npm run bench:db-restart — does the server survive a database restart, and what do callers
 * get while the database is down? The real server (server/main.ts, job workers on) runs
 * against a throwaway PostgreSQL cluster (server/testing/scratch-postgres.ts; needs the
 * PostgreSQL 15 server binaries) while 8 admins create clients in a loop:
 *
 * - `BENCH_RESTARTS` (10) restarts, alternating `pg_ctl restart -m fast` and `-m immediate`.
 *   A restart counts as survived when the process still runs and answers, no acknowledged
 *   (2xx) write is missing from the database, and a write sent after the restart got a 2xx
 *   within 10 s. A server that died is started again for the next try.
 * - An outage: the cluster stopped, `BENCH_OUTAGE_REQUESTS` (100) calls (client creations,
 *   client list, appointment list; 10 at a time), the answers counted by status.
 *
 * - Mail sent twice: the server sends through a local SMTP sink (bench/servers/smtp-sink.ts,
 *   which counts mails whose Message-ID came before). Before each restart `BENCH_MAILS` (300)
 *   messages are queued, so sending is under way when the database goes; after the restarts
 *   and once every message is `sent`, the duplicates are counted (aim 0). Then a kill -9: the
 *   same number queued, the server killed as the first of them arrives and started again, and the duplicates
 *   once all went out (the jobs in flight are recovered when their expiry passes, about
 *   2 minutes; at most the mails in flight, DELIVER_WORK's batchSize × concurrency, go twice).
 *
 * Prints JSON and writes it to bench/results/db-restart-latest.json.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq, inArray } from 'drizzle-orm';
import { startAppJobs } from '../server/app-jobs';
import { loadConfig } from '../server/config';
import { connectPostgres } from '../server/db/client';
import { communications } from '../server/db/schema/index';
import { DELIVER_JOB, DELIVER_WORK } from '../server/features/notifications/index';
import { outageBurst, restartUnderLoad, startDrill } from '../server/testing/outage-drill';
import { startChild, stopChild } from './servers/child';

const restarts = Number(process.env.BENCH_RESTARTS ?? 10);
const mailsPerDrill = Number(process.env.BENCH_MAILS ?? 300);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { child: sink, message: sinkAt } = await startChild<{ port: number }>(
  path.join(import.meta.dirname, 'servers/smtp-sink.ts'),
);
const sinkCounts = () =>
  new Promise<{ received: number; duplicates: number }>((resolve) => {
    sink.once('message', (m) => resolve(m as { received: number; duplicates: number }));
    sink.send('count');
  });
const serverEnv = { SMTP_URL: `smtp://127.0.0.1:${sinkAt.port}` };
const drill = await startDrill();
const database = connectPostgres(drill.databaseUrl, 2);
const config = loadConfig({
  NODE_ENV: 'development',
  LOG_LEVEL: 'silent',
  DATABASE_URL: drill.databaseUrl,
});

/** Queues `n` messages with a delivery job each (as a booking does); answers their ids. */
async function queueMails(n: number, label: string) {
  const enqueue = await startAppJobs({ db: database.db, config, workers: false });
  try {
    return await database.db.transaction(async (tx) => {
      const rows = await tx
        .insert(communications)
        .values(
          Array.from({ length: n }, (_, i) => ({
            channel: 'email' as const,
            template: 'drill',
            recipient: `${label}-${i}@drill.example`,
            subject: 'Ihr Termin',
            body: 'Guten Tag, Ihr Termin ist bestätigt.',
            status: 'queued' as const,
          })),
        )
        .returning({ id: communications.id });
      for (const row of rows) await enqueue.send(tx, DELIVER_JOB, { communicationId: row.id });
      return rows.map((r) => r.id);
    });
  } finally {
    await enqueue.stop();
  }
}

/** Waits until every message of `ids` is sent (or `limitMs` passed); answers how many are. */
async function allSent(ids: string[], limitMs: number) {
  const deadline = performance.now() + limitMs;
  for (;;) {
    const [row] = await database.db
      .select({ n: count() })
      .from(communications)
      .where(and(inArray(communications.id, ids), eq(communications.status, 'sent')))
      .catch(() => [{ n: -1 }]);
    if (row!.n === ids.length || performance.now() > deadline) return row!.n;
    await sleep(500);
  }
}

try {
  let server = await drill.startServer(serverEnv);
  const tries = [];
  const restartMails: string[] = [];
  for (let i = 0; i < restarts; i++) {
    const mode = i % 2 === 0 ? 'fast' : 'immediate';
    restartMails.push(...(await queueMails(mailsPerDrill, `restart${i}`)));
    const result = await restartUnderLoad(drill, server, { mode, recoverWithinMs: 10_000 });
    const survived =
      result.alive &&
      result.missing === 0 &&
      result.recoveryMs !== null &&
      result.recoveryMs < 10_000;
    tries.push({ ...result, survived });
    console.error(
      `restart ${i + 1}/${restarts} (${mode}): ${survived ? 'survived' : 'NOT survived'}`,
    );
    if (!result.alive) {
      await server.stop();
      server = await drill.startServer(serverEnv);
    }
  }
  const restartSent = await allSent(restartMails, 300_000);
  const afterRestarts = await sinkCounts();
  const outage = await outageBurst(drill, server, {
    requests: Number(process.env.BENCH_OUTAGE_REQUESTS ?? 100),
    concurrency: 10,
  });
  await sleep(5_000); // the database back from the outage
  const killMails = await queueMails(mailsPerDrill, 'kill');
  // Killed while sending: once the first of them reached the sink.
  let beforeKill = await sinkCounts();
  for (let i = 0; i < 600 && beforeKill.received <= afterRestarts.received; i++) {
    await sleep(50);
    beforeKill = await sinkCounts();
  }
  await server.kill();
  const atKill = await allSent(killMails, 0);
  server = await drill.startServer(serverEnv);
  const killStarted = performance.now();
  const killSent = await allSent(killMails, 300_000);
  const killRecoverySeconds = Math.round((performance.now() - killStarted) / 1000);
  const afterKill = await sinkCounts();
  await server.stop();

  const recovery = tries.map((t) => t.recoveryMs).filter((ms): ms is number => ms !== null);
  const report = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, load1: os.loadavg()[0] },
    restarts: {
      survived: tries.filter((t) => t.survived).length,
      of: tries.length,
      writersConcurrent: 8,
      acknowledgedWrites: tries.reduce((n, t) => n + t.acknowledged, 0),
      missingWrites: tries.reduce((n, t) => n + t.missing, 0),
      recoveryMsMax: recovery.length ? Math.max(...recovery) : null,
      tries,
    },
    outage,
    mail: {
      inFlightAtMost: DELIVER_WORK.batchSize * DELIVER_WORK.concurrency,
      restarts: {
        queued: restartMails.length,
        sent: restartSent,
        received: afterRestarts.received,
        duplicates: afterRestarts.duplicates,
      },
      kill9: {
        queued: killMails.length,
        sentBeforeKill: atKill,
        receivedBeforeKill: beforeKill.received - afterRestarts.received,
        sent: killSent,
        recoverySeconds: killRecoverySeconds,
        duplicates: afterKill.duplicates - afterRestarts.duplicates,
      },
    },
  };
  const json = JSON.stringify(report, null, 2);
  writeFileSync(path.join(import.meta.dirname, 'results/db-restart-latest.json'), `${json}\n`);
  console.log(json);
} finally {
  await database.close();
  await drill.close();
  await stopChild(sink);
}
