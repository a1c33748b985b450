import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root directory (where package.json is), found from this module's own place:
 * server/ when run from source (tests, tsx) and dist/server/ when `npm start` runs the bundle.
 */
export const projectRoot = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('projectRoot: no package.json above the server code');
    dir = parent;
  }
  return dir;
})();
