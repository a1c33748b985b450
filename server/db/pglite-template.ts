import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths';

/**
 * A migrated, empty embedded database made when the project is installed (`npm ci` runs the
 * `prepare` script, scripts/pglite-template.ts): PGlite's initdb takes about five seconds
 * in WebAssembly, copying its result well under one, so `npm start` on an empty `.data`
 * copies this instead. It lives under node_modules/.cache, which every install replaces,
 * so it always matches the installed PGlite; newer migrations are applied after the copy.
 */
export const PGLITE_TEMPLATE_DIR = path.join(
  projectRoot,
  'node_modules/.cache/sprechstunde/pglite-template',
);

const isDataDir = (dir: string) => existsSync(path.join(dir, 'PG_VERSION'));

/** Fills an empty data directory from the template; false when there is nothing to copy. */
export function copyPgliteTemplate(dataDir: string): boolean {
  if (isDataDir(dataDir) || !isDataDir(PGLITE_TEMPLATE_DIR)) return false;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  cpSync(PGLITE_TEMPLATE_DIR, dataDir, { recursive: true });
  return true;
}

/** Builds the template in a scratch directory and moves it into place when it is complete. */
export async function buildPgliteTemplate(
  create: (dir: string) => Promise<{ migrate(): Promise<void>; close(): Promise<void> }>,
) {
  const scratch = `${PGLITE_TEMPLATE_DIR}.${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  const database = await create(scratch);
  await database.migrate();
  await database.close();
  rmSync(PGLITE_TEMPLATE_DIR, { recursive: true, force: true });
  renameSync(scratch, PGLITE_TEMPLATE_DIR);
}
