import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * End-to-end runs against the real app: this builds the web app into dist/web when it is missing
 * or older than its sources, starts the app server on a fresh database (the server serves
 * dist/web with a history fallback, the API, the auth provider and the translations) and gives
 * tests its URL through `inject('baseUrl')`.
 *
 * E2E_BASE_URL=http://host:port runs the tests against an app that is already running instead
 * (no build, no server). E2E_BUILD=always|never|auto (default auto) controls the build.
 */

const ROOT = join(import.meta.dirname, '../..');
const WEB_DIST = join(ROOT, 'dist/web');
/** What the bundle is made of; the translation files are served at run time, not bundled. */
const BUILD_INPUTS = ['src', 'index.html', 'vite.config.ts', 'package-lock.json', 'tsconfig.json'];
const NOT_BUNDLED = [join(ROOT, 'src/i18n/locales')];

function newestMtime(path: string): number {
  if (!existsSync(path) || NOT_BUNDLED.includes(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function webBuildIsStale(): boolean {
  const index = join(WEB_DIST, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(join(ROOT, input)) > built);
}

/**
 * `vite build` in a child process with NODE_ENV=production: vitest sets NODE_ENV=test, and
 * building in this process would produce a development bundle.
 */
export async function buildWeb(): Promise<number> {
  const started = performance.now();
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
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

export default async function setup(project: TestProject) {
  const external = process.env.E2E_BASE_URL;
  if (external) {
    project.provide('baseUrl', external.replace(/\/+$/, ''));
    return undefined;
  }

  const mode = process.env.E2E_BUILD ?? 'auto';
  if (mode === 'always' || (mode === 'auto' && webBuildIsStale())) {
    const ms = await buildWeb();
    console.log(`e2e: built ${relative(ROOT, WEB_DIST)} in ${(ms / 1000).toFixed(1)} s`);
  } else if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error(`e2e: ${relative(ROOT, WEB_DIST)} is missing and E2E_BUILD=${mode}`);
  }

  const { startTestServer } = await import('../../server/testing/start-test-server');
  const server = await startTestServer();
  project.provide('baseUrl', server.url.replace(/\/+$/, ''));
  return async () => {
    await server.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the app under test, e.g. `http://127.0.0.1:41234` (no trailing slash). */
    baseUrl: string;
  }
}
