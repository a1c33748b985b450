/**
 * npm run bench:seed — how long the demo seed takes: on an in-memory PGlite (what `npm start`
 * does on a fresh machine) and on PostgreSQL (DATABASE_URL, or the local server; a scratch
 * database spr_seed_<random> is created and dropped).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectPglite, connectPostgres, type Database } from '../server/db/client';
import { seedIfEmpty } from '../server/seed/seed';

const ms = (since: number) => Math.round(performance.now() - since);

async function onPglite() {
  const t = performance.now();
  const database = await connectPglite();
  const start = ms(t);
  return { start, ...(await migrateAndSeed(database)) };
}

/** Migrates and seeds `database`, each step timed, and closes it. */
async function migrateAndSeed(database: Database) {
  let t = performance.now();
  await database.migrate();
  const migrate = ms(t);
  t = performance.now();
  const summary = await seedIfEmpty(database.db);
  const seed = ms(t);
  await database.close();
  return { migrate, seed, appointments: summary?.counts.appointments };
}

async function onPostgres() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `spr_seed_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(server);
    url.pathname = `/${name}`;
    return await migrateAndSeed(connectPostgres(url.toString(), 10));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const pglite = await onPglite();
console.log(
  `PGlite (in memory): start ${pglite.start} ms, migrate ${pglite.migrate} ms, seed ${pglite.seed} ms (${pglite.appointments} appointments)`,
);
const postgres = await onPostgres();
console.log(
  `PostgreSQL:         migrate ${postgres.migrate} ms, seed ${postgres.seed} ms (${postgres.appointments} appointments)`,
);
