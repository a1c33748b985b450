/**
 * npm run bench:calendar-sync — the sync part of bench/calendar-slots.ts alone, on a scratch
 * database of its own (migrated, one coach): a full background sync of one calendar of 1,440
 * objects from a real Radicale, then a second sync with nothing changed. `npm run bench`
 * runs the same measurement on its big database (`calendars.sync`).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectPostgres } from '../server/db/client';
import { calendarSync } from './calendar-slots';
import { round } from './common';

const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `spr_bench_sync_${randomBytes(4).toString('hex')}`;
const url = new URL(server);
url.pathname = `/${name}`;
const log = (...args: unknown[]) =>
  console.log(`[bench ${(performance.now() / 1000).toFixed(1)}s]`, ...args);

const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
try {
  const database = connectPostgres(url.toString(), 2);
  await database.migrate();
  await database.close();
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(
    `INSERT INTO coaches (first_name, last_name, email) VALUES ('Bench', 'Coach', 'coach@bench.example')`,
  );
  await client.end();
  const loadBefore = os.loadavg().map((n) => round(n));
  const sync = await calendarSync(url.toString(), log);
  const report = {
    at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      loadAverageBefore: loadBefore,
      loadAverageAfter: os.loadavg().map((n) => round(n)),
    },
    'calendars.sync': sync,
  };
  console.log(JSON.stringify(report, null, 2));
  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'calendar-sync-latest.json'),
    `${JSON.stringify(report, null, 2)}\n`,
  );
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
