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
 * Prints JSON and writes it to bench/results/db-restart-latest.json.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { outageBurst, restartUnderLoad, startDrill } from '../server/testing/outage-drill';

const restarts = Number(process.env.BENCH_RESTARTS ?? 10);
const drill = await startDrill();
try {
  let server = await drill.startServer();
  const tries = [];
  for (let i = 0; i < restarts; i++) {
    const mode = i % 2 === 0 ? 'fast' : 'immediate';
    const result = await restartUnderLoad(drill, server, { mode, recoverWithinMs: 10_000 });
    const survived =
      result.alive && result.missing === 0 && result.recoveryMs !== null && result.recoveryMs < 10_000;
    tries.push({ ...result, survived });
    console.error(`restart ${i + 1}/${restarts} (${mode}): ${survived ? 'survived' : 'NOT survived'}`);
    if (!result.alive) {
      await server.stop();
      server = await drill.startServer();
    }
  }
  const outage = await outageBurst(drill, server, {
    requests: Number(process.env.BENCH_OUTAGE_REQUESTS ?? 100),
    concurrency: 10,
  });
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
  };
  const json = JSON.stringify(report, null, 2);
  writeFileSync(path.join(import.meta.dirname, 'results/db-restart-latest.json'), `${json}\n`);
  console.log(json);
} finally {
  await drill.close();
}
