/**
 * npm run bench:backup — the restore drill's time: backup (pg_dump, custom format, with the
 * manifest's row counts in the same snapshot), restore into a fresh database (pg_restore in
 * one transaction, ANALYZE, every table counted and compared), and the check of every signed
 * document's hash. Once on the demo data and once on the list bench's 50,000 clients and
 * 100,000 appointments (bench/load.ts); the embedded database's dump and load of the demo
 * data beside them. Scratch databases on DATABASE_URL's server, dropped afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { canonicalHash } from '../server/canonical-json';
import { backupPglite, restorePglite } from '../server/backup/pglite';
import { backupPostgres, restorePostgres } from '../server/backup/postgres';
import { connectPglite, connectPostgres } from '../server/db/client';
import { verifySignedDocuments } from '../server/features/clinical/index';
import { seed } from '../server/seed/seed';
import { machineBrief, reportHead } from './common';
import { loadBenchData } from './load';
import { benchLog, onScratchDatabase } from './servers/scratch';

const log = benchLog('backup');
const ms = (since: number) => Math.round(performance.now() - since);
const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const withName = (name: string) => {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
};
const rows = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/**
 * Signed summaries for up to `limit` held appointments, hashed as signing does, so the drill's
 * check has documents to verify (the demo data and the list bench's data have none).
 */
async function signSummaries(dbUrl: string, limit: number): Promise<number> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows: signer } = await client.query<{ id: string }>(
      'SELECT id FROM users ORDER BY id LIMIT 1',
    );
    const { rows } = await client.query<{ id: string; client_id: string; coach_id: string }>(
      `SELECT id, client_id, coach_id FROM appointments
        WHERE cancelled_at IS NULL AND NOT no_show AND end_date < now() ORDER BY id LIMIT $1`,
      [limit],
    );
    const signedAt = new Date().toISOString();
    const content = {
      format: 'SOAP',
      riskFlag: false,
      sections: { subjective: 'S', objective: 'O', assessment: 'A', plan: 'P' },
      nextSteps: 'N',
    };
    for (let i = 0; i < rows.length; i += 1000) {
      const page = rows.slice(i, i + 1000).map((a) => {
        const id = randomUUID();
        const hash = canonicalHash({
          type: 'summary',
          id,
          signedById: signer[0]!.id,
          signedAt,
          content,
        });
        return [id, a.id, a.client_id, a.coach_id, hash];
      });
      await client.query(
        `INSERT INTO appointment_summaries (id, appointment_id, client_id, coach_id, status, content, signed_by_id, signed_at, content_hash, author_id)
         SELECT p.id::uuid, p.appointment_id::uuid, p.client_id::uuid, p.coach_id::uuid, 'sent', $1::jsonb, $2::uuid, $3::timestamptz, p.hash, $2::uuid
           FROM jsonb_to_recordset($4::jsonb) AS p(id text, appointment_id text, client_id text, coach_id text, hash text)`,
        [
          JSON.stringify(content),
          signer[0]!.id,
          signedAt,
          JSON.stringify(
            page.map(([id, appointment_id, client_id, coach_id, hash]) => ({
              id,
              appointment_id,
              client_id,
              coach_id,
              hash,
            })),
          ),
        ],
      );
    }
    return rows.length;
  } finally {
    await client.end();
  }
}

/** backup → restore into a fresh database → counts and signatures, each step timed. */
async function drillPostgres(dbUrl: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'spr-bench-backup-'));
  const fresh = `${new URL(dbUrl).pathname.slice(1)}_restored`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    let t = performance.now();
    const backup = await backupPostgres({ url: dbUrl, dir, pgBin: process.env.PG_BIN });
    const backupMs = ms(t);
    await admin.query(`CREATE DATABASE ${fresh}`);
    t = performance.now();
    const restored = await restorePostgres({
      url: withName(fresh),
      file: backup.file,
      pgBin: process.env.PG_BIN,
    });
    const restoreMs = ms(t);
    t = performance.now();
    const database = connectPostgres(withName(fresh), 2);
    const signatures = await verifySignedDocuments(database.db);
    await database.close();
    const verifyMs = ms(t);
    return {
      backupMs,
      restoreMs,
      verifyMs,
      totalMs: backupMs + restoreMs + verifyMs,
      bytes: backup.manifest.bytes,
      tables: Object.keys(restored.counts).length,
      rows: rows(restored.counts),
      appointments: restored.counts['public.appointments'],
      signedDocuments: signatures.documents,
      brokenSignatures: signatures.broken.length,
    };
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${fresh} WITH (FORCE)`);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  }
}

async function drillPglite() {
  const dir = await mkdtemp(path.join(tmpdir(), 'spr-bench-backup-'));
  const source = await connectPglite();
  try {
    await source.migrate();
    await seed(source.db);
    let t = performance.now();
    const pglite = (source.db as unknown as { $client: PGlite }).$client;
    const backup = await backupPglite({ pglite, dir });
    const backupMs = ms(t);
    t = performance.now();
    const restored = await restorePglite({ file: backup.file });
    const restoreMs = ms(t);
    t = performance.now();
    const copy = await connectPglite(undefined, restored.pglite);
    const signatures = await verifySignedDocuments(copy.db);
    await copy.close();
    const verifyMs = ms(t);
    return {
      backupMs,
      restoreMs,
      verifyMs,
      totalMs: backupMs + restoreMs + verifyMs,
      bytes: backup.manifest.bytes,
      tables: Object.keys(restored.counts).length,
      rows: rows(restored.counts),
      appointments: restored.counts['public.appointments'],
      signedDocuments: signatures.documents,
      brokenSignatures: signatures.broken.length,
    };
  } finally {
    await source.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const started = new Date();
const loadBefore = machineBrief().loadAverage;
const report: Record<string, unknown> = {};

await onScratchDatabase('backup', async ({ dbUrl }) => {
  const database = connectPostgres(dbUrl, 2);
  await seed(database.db);
  await database.close();
  await signSummaries(dbUrl, 200);
  log('demo data seeded; drill');
  report.demoPostgres = await drillPostgres(dbUrl);
  log('demo:', report.demoPostgres);
});

await onScratchDatabase('backup', async ({ dbUrl, loader, writeReport }) => {
  const t = performance.now();
  await loadBenchData(loader);
  await signSummaries(dbUrl, 20_000);
  await loader.query('VACUUM (ANALYZE)');
  log(`100,000 appointments loaded in ${ms(t)} ms; drill`);
  report.appointments100k = await drillPostgres(dbUrl);
  log('100k:', report.appointments100k);
  report.demoPglite = await drillPglite();
  log('PGlite:', report.demoPglite);
  writeReport(started, {
    ...reportHead(started, {
      note: 'figures, no targets: the recovery time a practice can plan with',
    }),
    machine: { ...machineBrief(), loadAverageBefore: loadBefore },
    ...report,
  });
});
