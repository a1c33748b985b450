import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Rows per table, keyed `schema.table`. */
export type TableCounts = Record<string, number>;

/**
 * Written beside every backup file (`<file>.json`): what the restore checks before and after
 * it runs. The counts are taken in the same snapshot as the dump, so a restored copy must
 * match them exactly.
 */
export interface BackupManifest {
  format: 1;
  kind: 'postgres' | 'pglite';
  /** The backup file's name (in the same directory). */
  file: string;
  createdAt: string;
  bytes: number;
  sha256: string;
  counts: TableCounts;
  durationMs: number;
}

export const manifestPath = (file: string) => `${file}.json`;

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function writeManifest(file: string, manifest: BackupManifest): Promise<void> {
  await writeFile(manifestPath(file), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Describes a finished backup file (size, hash, the counts taken with the dump, how long it
 * took since `started`, a `performance.now()` reading) and writes that beside it.
 */
export async function finishBackup(
  file: string,
  backup: { kind: BackupManifest['kind']; createdAt: Date; counts: TableCounts; started: number },
): Promise<{ file: string; manifest: BackupManifest }> {
  const manifest: BackupManifest = {
    format: 1,
    kind: backup.kind,
    file: path.basename(file),
    createdAt: backup.createdAt.toISOString(),
    bytes: (await stat(file)).size,
    sha256: await sha256Of(file),
    counts: backup.counts,
    durationMs: Math.round(performance.now() - backup.started),
  };
  await writeManifest(file, manifest);
  return { file, manifest };
}

export async function readManifest(file: string): Promise<BackupManifest | null> {
  try {
    return JSON.parse(await readFile(manifestPath(file), 'utf8')) as BackupManifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The tables whose counts differ (a table missing on one side counts as differing). */
export function countDifferences(expected: TableCounts, actual: TableCounts): string[] {
  const tables = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  return [...tables]
    .filter((t) => expected[t] !== actual[t])
    .sort()
    .map((t) => `${t}: ${expected[t] ?? 'missing'} → ${actual[t] ?? 'missing'}`);
}

/** A backup or restore that must not go ahead (the message says why, in German for the CLI). */
export class BackupRefused extends Error {}

/** Checks a backup file against its manifest (same hash); null when it has none. */
export async function checkBackupFile(file: string): Promise<BackupManifest | null> {
  const manifest = await readManifest(file);
  if (manifest && (await sha256Of(file)) !== manifest.sha256) {
    throw new BackupRefused(
      `Die Sicherung ${path.basename(file)} ist beschädigt (Prüfsumme weicht ab).`,
    );
  }
  return manifest;
}
