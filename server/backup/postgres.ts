import { spawn } from 'node:child_process';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { countTables } from './counts';
import { backupFileName } from './files';
import {
  BackupRefused,
  checkBackupFile,
  countDifferences,
  finishBackup,
  type BackupManifest,
  type TableCounts,
} from './manifest';

/** Runs one of PostgreSQL's client programs; its error output becomes the error's message. */
function run(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(program)} exited ${code}: ${stderr.trim()}`)),
    );
  });
}

const program = (pgBin: string | undefined, name: string) =>
  pgBin ? path.join(pgBin, name) : name;

/**
 * A consistent dump of the whole database (the app's tables, the job queue, the migration
 * log) in pg_dump's custom format, while the app keeps running. The row counts of the
 * manifest are read in the snapshot pg_dump dumps (an exported snapshot), so they describe
 * exactly what the file holds.
 */
export async function backupPostgres(options: {
  url: string;
  dir: string;
  pgBin?: string | undefined;
  now?: Date;
}): Promise<{ file: string; manifest: BackupManifest }> {
  const started = performance.now();
  const now = options.now ?? new Date();
  await mkdir(options.dir, { recursive: true });
  const file = path.join(options.dir, backupFileName('postgres', now));
  const partial = `${file}.partial`;
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  let counts: TableCounts;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ snapshot: string }>(
      'SELECT pg_export_snapshot() AS snapshot',
    );
    counts = await countTables(async (text) => (await client.query(text)).rows);
    await run(program(options.pgBin, 'pg_dump'), [
      '--format=custom',
      '--no-password',
      `--snapshot=${rows[0]!.snapshot}`,
      `--file=${partial}`,
      `--dbname=${options.url}`,
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await client.end();
  }
  // Only a complete dump gets the backup's name: a crash mid-way leaves a `.partial` file.
  await rename(partial, file);
  return finishBackup(file, { kind: 'postgres', createdAt: now, counts, started });
}

/**
 * Restores a dump into an empty database (a fresh one: `createdb`) in one transaction, so a
 * failed restore leaves the database as empty as it was. Refuses a database that has tables:
 * a restore never overwrites data. Afterwards every table's rows are counted and compared
 * with the manifest.
 */
export async function restorePostgres(options: {
  url: string;
  file: string;
  pgBin?: string | undefined;
}): Promise<{ counts: TableCounts; manifest: BackupManifest | null; durationMs: number }> {
  const started = performance.now();
  const manifest = await checkBackupFile(options.file);
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg\\_%'`,
    );
    if (rows[0]!.n > 0) {
      throw new BackupRefused(
        'Die Zieldatenbank enthält schon Tabellen; eine Wiederherstellung überschreibt nichts. ' +
          'Legen Sie eine neue, leere Datenbank an (createdb) und setzen Sie DATABASE_URL darauf.',
      );
    }
    await run(program(options.pgBin, 'pg_restore'), [
      '--exit-on-error',
      '--single-transaction',
      '--no-owner',
      '--no-privileges',
      '--no-password',
      `--dbname=${options.url}`,
      options.file,
    ]);
    // pg_restore brings no planner statistics: without them the first queries of a busy
    // practice would plan as if every table were empty.
    await client.query('ANALYZE');
    const counts = await countTables(async (text) => (await client.query(text)).rows);
    if (manifest) {
      const differences = countDifferences(manifest.counts, counts);
      if (differences.length > 0) {
        throw new Error(`Restored row counts differ from the backup's: ${differences.join('; ')}`);
      }
    }
    return { counts, manifest, durationMs: Math.round(performance.now() - started) };
  } finally {
    await client.end();
  }
}
