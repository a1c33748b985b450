import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { manifestPath } from './manifest';

const BACKUP_FILE =
  /^sprechstunde-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)\.(dump|pglite\.tar\.gz)$/;

/** A backup's file name: the time it was taken (UTC, sortable) and its kind. */
export function backupFileName(kind: 'postgres' | 'pglite', at: Date): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  return `sprechstunde-${stamp}.${kind === 'postgres' ? 'dump' : 'pglite.tar.gz'}`;
}

/** The backups in `dir`, newest first. */
export async function listBackups(dir: string): Promise<{ file: string; takenAt: Date }[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .flatMap((name) => {
      const match = BACKUP_FILE.exec(name);
      if (!match) return [];
      const [date, time] = match[1]!.split('T') as [string, string];
      const [h, m, s, ms] = time.replace('Z', '').split('-');
      return [{ file: path.join(dir, name), takenAt: new Date(`${date}T${h}:${m}:${s}.${ms}Z`) }];
    })
    .sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
}

/**
 * Deletes backups taken more than `keepDays` days before `now`, with their manifests; the
 * newest backup is always kept, so a machine that stopped backing up still has one.
 */
export async function pruneBackups(dir: string, keepDays: number, now: Date): Promise<string[]> {
  const cutoff = now.getTime() - keepDays * 24 * 60 * 60_000;
  const [, ...older] = await listBackups(dir);
  const removed: string[] = [];
  for (const backup of older) {
    if (backup.takenAt.getTime() >= cutoff) continue;
    await rm(backup.file, { force: true });
    await rm(manifestPath(backup.file), { force: true });
    removed.push(path.basename(backup.file));
  }
  return removed;
}

/** Whether a directory is missing or empty (a place a restore may write to). */
export async function isEmptyDir(dir: string): Promise<boolean> {
  try {
    if (!(await stat(dir)).isDirectory()) return false;
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}
