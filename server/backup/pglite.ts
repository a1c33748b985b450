import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from '../db/client';
import { countTables } from './counts';
import { backupFileName, isEmptyDir } from './files';
import {
  BackupRefused,
  checkBackupFile,
  countDifferences,
  finishBackup,
  type BackupManifest,
  type TableCounts,
} from './manifest';

const queryOf = (pglite: PGlite) => async (text: string) =>
  (await pglite.query<Record<string, unknown>>(text)).rows;

/**
 * The embedded database's own dump: its data directory as a gzipped tar (PGlite's
 * dumpDataDir, taken between two statements). PGlite allows one process per data directory,
 * so the server must be stopped while `npm run backup` opens it.
 */
export async function backupPglite(options: {
  pglite: PGlite;
  dir: string;
  now?: Date;
}): Promise<{ file: string; manifest: BackupManifest }> {
  const started = performance.now();
  const now = options.now ?? new Date();
  await mkdir(options.dir, { recursive: true });
  const file = path.join(options.dir, backupFileName('pglite', now));
  // Nothing else runs on this instance between the counts and the dump.
  const counts = await countTables(queryOf(options.pglite));
  const tar = await options.pglite.dumpDataDir('gzip');
  await writeFile(`${file}.partial`, Buffer.from(await tar.arrayBuffer()));
  await rename(`${file}.partial`, file);
  return finishBackup(file, { kind: 'pglite', createdAt: now, counts, started });
}

/**
 * Loads an embedded database's dump into an empty data directory (or into memory without
 * one) and compares every table's rows with the manifest. Answers the open database.
 */
export async function restorePglite(options: { file: string; dataDir?: string }): Promise<{
  pglite: PGlite;
  counts: TableCounts;
  manifest: BackupManifest | null;
  durationMs: number;
}> {
  const started = performance.now();
  const manifest = await checkBackupFile(options.file);
  if (options.dataDir) {
    if (!(await isEmptyDir(options.dataDir))) {
      throw new BackupRefused(
        `Das Verzeichnis ${options.dataDir} ist nicht leer; eine Wiederherstellung überschreibt nichts. ` +
          'Verschieben Sie es oder setzen Sie PGLITE_DIR auf ein leeres Verzeichnis.',
      );
    }
    await mkdir(options.dataDir, { recursive: true });
  }
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    loadDataDir: new Blob([await readFile(options.file)]),
    extensions: pgliteExtensions,
  });
  try {
    const counts = await countTables(queryOf(pglite));
    if (manifest) {
      const differences = countDifferences(manifest.counts, counts);
      if (differences.length > 0) {
        throw new Error(`Restored row counts differ from the backup's: ${differences.join('; ')}`);
      }
    }
    return { pglite, counts, manifest, durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    await pglite.close();
    throw error;
  }
}
