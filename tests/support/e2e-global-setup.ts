import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { buildWeb, webBuildIsStale } from '../../scripts/web-build.ts';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';

/**
 * End-to-end runs against the real app: this builds the web app into dist/web when it is missing
 * or older than its sources, starts the app server on a fresh database (the server serves
 * dist/web with a history fallback, the API, the auth provider and the translations) and gives
 * tests its URL through `inject('baseUrl')`.
 *
 * It also starts the one Chromium the files share (`inject('browserEndpoint')`, see browser.ts).
 *
 * E2E_BASE_URL=http://host:port runs the tests against an app that is already running instead
 * (no build, no server). E2E_BUILD=always|never|auto (default auto) controls the build.
 */

const ROOT = join(import.meta.dirname, '../..');
const WEB_DIST = join(ROOT, 'dist/web');

export default async function setup(project: TestProject) {
  const browser = await chromium.launchServer({
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
  });
  project.provide('browserEndpoint', browser.wsEndpoint());

  const external = process.env.E2E_BASE_URL;
  if (external) {
    project.provide('baseUrl', external.replace(/\/+$/, ''));
    return () => browser.close();
  }

  const mode = process.env.E2E_BUILD ?? 'auto';
  if (mode === 'always' || (mode === 'auto' && webBuildIsStale())) {
    const ms = await buildWeb();
    console.log(`e2e: built ${relative(ROOT, WEB_DIST)} in ${(ms / 1000).toFixed(1)} s`);
  } else if (!existsSync(join(WEB_DIST, 'index.html'))) {
    await browser.close();
    throw new Error(`e2e: ${relative(ROOT, WEB_DIST)} is missing and E2E_BUILD=${mode}`);
  }

  const { startTestServer } = await import('../../server/testing/start-test-server');
  const server = await startTestServer().catch(async (error: unknown) => {
    await browser.close();
    throw error;
  });
  project.provide('baseUrl', server.url.replace(/\/+$/, ''));
  return async () => {
    await server.close();
    await browser.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the app under test, e.g. `http://127.0.0.1:41234` (no trailing slash). */
    baseUrl: string;
    /** Where the run's shared Chromium listens (playwright's `connect`). */
    browserEndpoint: string;
  }
}
