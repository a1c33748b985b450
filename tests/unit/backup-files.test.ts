// @vitest-environment node
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupFileName, listBackups, pruneBackups } from '../../server/backup/files';
import {
  BackupRefused,
  checkBackupFile,
  countDifferences,
  sha256Of,
  writeManifest,
} from '../../server/backup/manifest';

const DAY = 24 * 60 * 60_000;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'spr-backup-files-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function backupAt(at: Date) {
  const file = path.join(dir, backupFileName('postgres', at));
  await writeFile(file, 'dump');
  await writeFile(`${file}.json`, '{}');
  return path.basename(file);
}

describe('backup files', () => {
  it('keeps the backups of the last BACKUP_KEEP_DAYS days and deletes older ones with their manifests', async () => {
    const now = new Date('2026-12-07T01:30:00.000Z');
    const recent = await backupAt(new Date(now.getTime() - 2 * DAY));
    const old = await backupAt(new Date(now.getTime() - 40 * DAY));
    await writeFile(path.join(dir, 'notes.txt'), 'not a backup');

    expect(await pruneBackups(dir, 35, now)).toEqual([old]);
    expect((await readdir(dir)).sort()).toEqual([recent, `${recent}.json`, 'notes.txt'].sort());
  });

  it('always keeps the newest backup, however old', async () => {
    const now = new Date('2026-12-07T01:30:00.000Z');
    const only = await backupAt(new Date(now.getTime() - 400 * DAY));
    expect(await pruneBackups(dir, 35, now)).toEqual([]);
    expect((await listBackups(dir)).map((b) => path.basename(b.file))).toEqual([only]);
  });

  it('refuses a backup whose content no longer matches its manifest', async () => {
    const file = path.join(dir, backupFileName('postgres', new Date()));
    await writeFile(file, 'the dump');
    await writeManifest(file, {
      format: 1,
      kind: 'postgres',
      file: path.basename(file),
      createdAt: new Date().toISOString(),
      bytes: 8,
      sha256: await sha256Of(file),
      counts: { 'public.clients': 1 },
      durationMs: 1,
    });
    expect(await checkBackupFile(file)).toMatchObject({ counts: { 'public.clients': 1 } });
    await writeFile(file, 'the dump, changed');
    await expect(checkBackupFile(file)).rejects.toBeInstanceOf(BackupRefused);
  });

  it('names every table whose rows differ', () => {
    expect(
      countDifferences({ 'public.a': 1, 'public.b': 2 }, { 'public.a': 1, 'public.c': 0 }),
    ).toEqual(['public.b: 2 → missing', 'public.c: missing → 0']);
  });
});
