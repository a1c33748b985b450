/**
 * The set-up every database benchmark shares: a scratch database on DATABASE_URL's server
 * (default postgres://postgres@127.0.0.1:5432), migrated; a loader connection for the data;
 * the app and the bare baseline as child processes with a token issuer; the report written
 * to bench/results/<name>-<timestamp>.json and <name>-latest.json; and, whatever happened,
 * the children stopped and the database dropped (BENCH_KEEP_DB=1 keeps it).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connectPostgres } from '../../server/db/client';
import { stopChild } from './child';
import { startAppAndBaseline } from './pair';

const results = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** A benchmark's log line, with the seconds since it started. */
export const benchLog =
  (name: string) =>
  (...args: unknown[]) =>
    console.log(`[bench:${name} ${(performance.now() / 1000).toFixed(1)}s]`, ...args);

export interface ScratchBench {
  dbUrl: string;
  /** Connected; its errors are logged (the final DROP … WITH (FORCE) ends it if a step failed). */
  loader: pg.Client;
  /** The app and the baseline, each with this pool size. */
  startServers: (poolSize: number) => ReturnType<typeof startAppAndBaseline>;
  /** Writes the report as <name>-<started>.json and <name>-latest.json, and prints it. */
  writeReport: (started: Date, report: unknown) => void;
}

/** Runs `body` on a fresh scratch database; sets a failing exit code when it throws. */
export async function onScratchDatabase(
  name: string,
  body: (bench: ScratchBench) => Promise<void>,
) {
  const log = benchLog(name);
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `spr_bench_${name}_${randomBytes(4).toString('hex')}`;
  const url = new URL(server);
  url.pathname = `/${dbName}`;
  const dbUrl = url.toString();
  const admin = new pg.Client({ connectionString: server });
  const loader = new pg.Client({ connectionString: dbUrl });
  loader.on('error', (err) => log('loader connection:', err.message));
  const children: ChildProcess[] = [];
  let created = false;
  let connected = false;
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    created = true;
    const migrator = connectPostgres(dbUrl, 2);
    await migrator.migrate();
    await migrator.close();
    await loader.connect();
    connected = true;
    await body({
      dbUrl,
      loader,
      startServers: async (poolSize) => {
        const started = await startAppAndBaseline(dbUrl, poolSize);
        children.push(started.app.child, started.baseline.child);
        return started;
      },
      writeReport: (started, report) => {
        mkdirSync(results, { recursive: true });
        const json = `${JSON.stringify(report, null, 2)}\n`;
        writeFileSync(
          path.join(results, `${name}-${started.toISOString().replace(/[:.]/g, '-')}.json`),
          json,
        );
        writeFileSync(path.join(results, `${name}-latest.json`), json);
        console.log(json);
      },
    });
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  } finally {
    await Promise.all(children.map((c) => stopChild(c)));
    if (connected) await loader.end().catch(() => {});
    if (created && process.env.BENCH_KEEP_DB !== '1')
      await admin
        .query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
        .catch((err) => log('could not drop', err));
    else if (created) log(`database kept: ${dbUrl}`);
    await admin.end().catch(() => {});
  }
}
