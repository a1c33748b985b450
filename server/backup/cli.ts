/**
 * npm run backup                 a backup of the configured database into BACKUP_DIR
 * npm run restore -- <file>      restores a backup into the configured, empty database
 *
 * The same configuration as the server: DATABASE_URL (pg_dump / pg_restore), or the embedded
 * database in PGLITE_DIR (its own dump; stop the server first, its files are not shared).
 * Both print one JSON line for scripts after the German summary.
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../config';
import { connectPglite, connectPostgres, pgliteExtensions } from '../db/client';
import { verifySignedDocuments } from '../features/clinical/index';
import { isEmptyDir, pruneBackups } from './files';
import { BackupRefused } from './manifest';
import { backupPglite, restorePglite } from './pglite';
import { backupPostgres, restorePostgres } from './postgres';

const config = loadConfig();
const [command, fileArgument] = process.argv.slice(2);
const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
const n = (value: number) => value.toLocaleString('de-DE');

async function backup() {
  let result;
  if (config.DATABASE_URL) {
    result = await backupPostgres({
      url: config.DATABASE_URL,
      dir: config.BACKUP_DIR,
      pgBin: config.PG_BIN,
    });
  } else {
    if (await isEmptyDir(config.PGLITE_DIR)) {
      throw new BackupRefused(`In ${config.PGLITE_DIR} liegt keine eingebettete Datenbank.`);
    }
    const pglite = await PGlite.create(config.PGLITE_DIR, { extensions: pgliteExtensions });
    try {
      result = await backupPglite({ pglite, dir: config.BACKUP_DIR });
    } finally {
      await pglite.close();
    }
  }
  const removed = await pruneBackups(config.BACKUP_DIR, config.BACKUP_KEEP_DAYS, new Date());
  const { manifest } = result;
  console.log(
    `Sicherung geschrieben: ${result.file}\n` +
      `${n(Object.keys(manifest.counts).length)} Tabellen, ${n(total(manifest.counts))} Zeilen, ` +
      `${n(manifest.bytes)} Bytes, ${n(manifest.durationMs)} ms\n` +
      (removed.length
        ? `Älter als ${config.BACKUP_KEEP_DAYS} Tage, gelöscht: ${removed.join(', ')}\n`
        : '') +
      'Kopieren Sie die Datei mit ihrer .json-Datei an einen anderen Ort (docs/backup.md).',
  );
  console.log(
    JSON.stringify({
      file: result.file,
      bytes: manifest.bytes,
      durationMs: manifest.durationMs,
      removed,
    }),
  );
}

async function restore() {
  if (!fileArgument) throw new BackupRefused('Welche Sicherung? npm run restore -- <Datei>');
  const file = path.resolve(fileArgument);
  let restored;
  let database;
  if (config.DATABASE_URL) {
    restored = await restorePostgres({ url: config.DATABASE_URL, file, pgBin: config.PG_BIN });
    database = connectPostgres(config.DATABASE_URL, 2);
  } else {
    const { pglite, ...rest } = await restorePglite({ file, dataDir: config.PGLITE_DIR });
    restored = rest;
    database = await connectPglite(undefined, pglite);
  }
  try {
    const signatures = await verifySignedDocuments(database.db);
    if (signatures.broken.length > 0) {
      throw new Error(
        `Signed documents whose hash does not verify: ${signatures.broken.map((b) => `${b.kind} ${b.id}`).join(', ')}`,
      );
    }
    console.log(
      `Wiederhergestellt aus ${path.basename(file)} in ${n(restored.durationMs)} ms: ` +
        `${n(Object.keys(restored.counts).length)} Tabellen, ${n(total(restored.counts))} Zeilen` +
        (restored.manifest
          ? ', Zeilenzahlen wie in der Sicherung'
          : ' (ohne .json-Datei: Zeilenzahlen ungeprüft)') +
        `; ${n(signatures.documents)} signierte Dokumente und ${n(signatures.amendments)} Nachträge geprüft.\n` +
        'Beim nächsten Start wendet der Server neuere Migrationen an.',
    );
    console.log(
      JSON.stringify({
        file,
        durationMs: restored.durationMs,
        counts: restored.counts,
        countsChecked: restored.manifest !== null,
        signedDocuments: signatures.documents,
        amendments: signatures.amendments,
      }),
    );
  } finally {
    await database.close();
  }
}

try {
  if (command === 'backup') await backup();
  else if (command === 'restore') await restore();
  else throw new BackupRefused('Aufruf: tsx server/backup/cli.ts backup | restore <Datei>');
} catch (error) {
  console.error(error instanceof BackupRefused ? error.message : error);
  process.exitCode = 1;
}
