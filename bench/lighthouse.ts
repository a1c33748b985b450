/**
 * npm run bench:lighthouse — Lighthouse's scores for the pages a new visitor sees first.
 *
 * 1. Unless BENCH_LIGHTHOUSE_URL names a running server, starts the app as it runs in
 *    production: `npm start` (scripts/start.ts: builds what is stale, then the server bundle)
 *    with NODE_ENV=production on a free port and a throwaway embedded database, and waits
 *    for /healthz.
 * 2. Runs Lighthouse (its defaults: mobile form factor, simulated slow 4G and 4× CPU slowdown)
 *    with the Debian Chromium (/usr/bin/chromium, or CHROME_PATH) on each page, RUNS times
 *    (BENCH_LIGHTHOUSE_RUNS, default 3) in a fresh browser each; the scores are the median run's.
 * 3. Prints one JSON document (scores 0–100, largest contentful paint, total blocking time,
 *    transfer size) and writes bench/results/lighthouse-latest.json.
 *
 * Slow by nature (about 20 s a run): not part of `npm test`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const PAGES = (process.env.BENCH_LIGHTHOUSE_PAGES ?? '/login,/client-signup').split(',');
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS) || 3;
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const root = path.resolve(import.meta.dirname, '..');

const median = <T>(xs: T[], by: (x: T) => number) =>
  [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)]!;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** `npm start` as production runs it; resolves once /healthz answers. */
async function startProduction(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const data = mkdtempSync(path.join(os.tmpdir(), 'sprechstunde-lighthouse-'));
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: url,
      AUTH_ISSUER: `${url}/auth`,
      PGLITE_DIR: path.join(data, 'pglite'),
      LOG_LEVEL: 'warn',
      // A production start refuses the development secrets published in the source.
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      RESEARCH_PSEUDONYM_KEY: randomBytes(32).toString('base64'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: false,
  });
  const stop = async () => {
    if (child.exitCode === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
    rmSync(data, { recursive: true, force: true });
  };
  const limit = Date.now() + Number(process.env.BENCH_START_TIMEOUT_MS ?? 300_000);
  while (Date.now() < limit) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error('npm start did not answer /healthz in time');
}

interface Run {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  cumulativeLayoutShift: number;
  speedIndexMs: number;
  transferKiB: number;
  requests: number;
}

async function audit(url: string): Promise<Run> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless', '--no-sandbox'],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error(`lighthouse gave no result for ${url}`);
    const { categories, audits, runtimeError } = result.lhr;
    if (runtimeError) throw new Error(`${url}: ${runtimeError.code} ${runtimeError.message}`);
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const value = (id: string) => audits[id]?.numericValue ?? NaN;
    const requests = (audits['network-requests']?.details as { items?: unknown[] } | undefined)
      ?.items?.length;
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      firstContentfulPaintMs: Math.round(value('first-contentful-paint')),
      largestContentfulPaintMs: Math.round(value('largest-contentful-paint')),
      totalBlockingTimeMs: Math.round(value('total-blocking-time')),
      cumulativeLayoutShift: Math.round(value('cumulative-layout-shift') * 1000) / 1000,
      speedIndexMs: Math.round(value('speed-index')),
      transferKiB: Math.round(value('total-byte-weight') / 102.4) / 10,
      requests: requests ?? 0,
    };
  } finally {
    chrome.kill();
  }
}

async function main() {
  const given = process.env.BENCH_LIGHTHOUSE_URL?.replace(/\/$/, '');
  const server = given ? { url: given, stop: async () => {} } : await startProduction();
  try {
    const pages: Record<string, Run & { runs: Run[] }> = {};
    for (const page of PAGES) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await audit(`${server.url}${page}`));
      pages[page] = { ...median(runs, (r) => r.performance), runs };
    }
    const result = {
      bench: 'lighthouse',
      at: new Date().toISOString(),
      lighthouse: (await import('lighthouse/package.json', { with: { type: 'json' } })).default
        .version,
      chrome: CHROME,
      settings: 'Lighthouse defaults: mobile, simulated throttling (slow 4G, 4× CPU)',
      server: given ? given : 'npm start, NODE_ENV=production',
      runs: RUNS,
      loadAverage: os.loadavg().map((n) => Math.round(n * 10) / 10),
      pages,
    };
    const out = JSON.stringify(result, null, 2);
    console.log(out);
    const dir = path.join(import.meta.dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'lighthouse-latest.json'), `${out}\n`);
  } finally {
    await server.stop();
  }
}

await main();
