// The web app's build (dist/web), for `npm start` and the end-to-end tests.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { isStale } from './freshness.ts';

const root = path.resolve(import.meta.dirname, '..');
/** What the bundle is made of; the translation files are served at run time, not bundled. */
const INPUTS = [
  'src',
  'shared',
  'public',
  'index.html',
  'vite.config.ts',
  'package-lock.json',
  'tsconfig.json',
];
const NOT_BUNDLED = ['src/i18n/locales'];

export const webBuildIsStale = () =>
  isStale(
    path.join(root, 'dist/web/index.html'),
    INPUTS.map((p) => path.join(root, p)),
    NOT_BUNDLED.map((p) => path.join(root, p)),
  );

/**
 * `vite build` in a child process with NODE_ENV=production (vitest sets NODE_ENV=test, and a
 * build in its process would be a development bundle); resolves with the milliseconds taken.
 */
export async function buildWeb(): Promise<number> {
  const started = performance.now();
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`)),
    );
  });
  return performance.now() - started;
}
