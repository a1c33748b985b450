/**
 * npm run bench:auth — the authentication provider's two figures, on real PostgreSQL.
 *
 * 1. Creates a scratch database spr_bench_auth_<random> on DATABASE_URL's server (default
 *    postgres://postgres@127.0.0.1:5432), migrates it, builds the app with the provider
 *    mounted at /auth (as server/main.ts does) and listens on 127.0.0.1. This process is the
 *    server; the clients run in a child process of their own (bench/auth-load.ts, same Node
 *    and tsx, node:http keep-alive), as a real caller would: they never take the server's
 *    event loop. Latency is measured there, per request, client-side.
 * 2. Floor: BENCH_CONNECTIONS (default 20) concurrent callers posting `{}` to the app's
 *    cheapest POST (`/auth/token_exchange`, refused with 403 before any database work while
 *    SAML is off: the same HTTP, hooks and JSON parsing as a flow request).
 * 3. Flow step: as many concurrent clients, each repeatedly starting a login flow
 *    (`POST /auth/login`: creates the flow row) and answering its preflight
 *    (`register_client_capabilities`: claims the flow, validates, renders, stores a new CSRF
 *    token). Neither hashes a password. Reported: latencies, steps/s, the server process's
 *    CPU per start + step (`processCpuMsPerFlow`), the clients' (`clientCpuMsPerFlow`), the
 *    share of the machine's cores busy, and p95 / floor p95 (`p95VsFloor`): on 2 shared,
 *    noisy cores the ratio says more than the milliseconds.
 * 4. Bare floor: the same callers against bare Fastify in another child process
 *    (bench/servers/bare-post.ts): one HTTP round trip on this machine, below the app.
 * 5. Session check in the product API: the product's verifyToken (createTokenVerifier with
 *    the provider's keys and session table, as main.ts wires it) on one token, many times
 *    after the first call (key and session answer cached), and, for comparison, a full
 *    signature check of a token not seen before.
 * 6. Writes bench/results/auth-<timestamp>.json and auth-latest.json, prints them and a
 *    summary line, drops the database. A missed target is reported, not an error.
 *
 * Knobs: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS,
 * BENCH_CLIENT=fetch (the load generator uses fetch instead of node:http),
 * BENCH_VERIFY_ITERATIONS (default 200000), BENCH_KEEP_DB=1, BENCH_CPU_PROFILE=<file> (a V8
 * CPU profile of the server during the measured flow steps only, for chrome://inspect).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { connectPostgres } from '../server/db/client';
import { authUsers } from '../server/db/schema/index';
import { createTokenVerifier } from '../server/http/auth';
import { createRateLimiters } from '../server/http/rate-limit';
import { mailOutbox } from '../server/features/notifications/index';
import { createAuthProvider } from '../server/auth-provider/provider';
import type { LoadDone, LoadJob } from './auth-load';
import { CONNECTIONS, DURATION, env, round, WARMUP } from './common';
import { cpuSince, machineCpu, postgresCpu } from './cpu';
import { startChild, stopChild } from './servers/child';

const here = path.dirname(fileURLToPath(import.meta.url));
const ITERATIONS = env('BENCH_VERIFY_ITERATIONS', 200_000);
const CLIENT = process.env.BENCH_CLIENT === 'fetch' ? 'fetch' : 'http';
const TARGET = { flowStepP95Ms: 10, sessionCheckMs: 0.2 };

const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `spr_bench_auth_${randomBytes(4).toString('hex')}`;
const dbUrl = (() => {
  const u = new URL(server);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const log = (...args: unknown[]) =>
  console.log(`[bench:auth ${(performance.now() / 1000).toFixed(1)}s]`, ...args);

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  const r = (n: number) => round(n, 3);
  return {
    p50: r(at(0.5)),
    p95: r(at(0.95)),
    p99: r(at(0.99)),
    mean: r(mean),
    max: r(sorted.at(-1) ?? NaN),
  };
}

const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const database = connectPostgres(dbUrl, 10);
try {
  await database.migrate();
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: dbUrl,
  });
  const rateLimits = createRateLimiters({ kind: 'memory' }, {});
  const provider = await createAuthProvider({
    db: database.db,
    config,
    rateLimits,
    // The app's job queue, started by buildApp below (the bench sends no passcode mail).
    mailer: mailOutbox(() => app.jobs),
  });
  const verifyToken = createTokenVerifier({
    issuer: config.AUTH_ISSUER,
    audience: config.AUTH_AUDIENCE,
    jwks: async () => provider.jwks(),
    sessionActive: provider.sessions.isActive,
  });
  const app = await buildApp(
    { config, db: database.db, verifyToken, now: () => new Date(), rateLimits },
    { logger: false, authProvider: provider, jobs: { workers: false } },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  // --- Load: a child process with its own event loop ----------------------------------------
  const load = await startChild<{ type: 'ready' }>(path.join(here, 'auth-load.ts'));
  const bare = await startChild<{ port: number }>(path.join(here, 'servers/bare-post.ts'));
  const profileFile = process.env.BENCH_CPU_PROFILE;
  /**
   * Runs one job in the load generator; the server's (this process's) CPU and the machine's
   * are read over the same measured window, and `profile` records this process in it.
   */
  async function measure(job: LoadJob, profile = false) {
    const inspector = profile && profileFile ? new Session() : null;
    let cpuAt = process.cpuUsage();
    let machineAt = machineCpu();
    let postgresAt = postgresCpu();
    const done = new Promise<LoadDone>((resolve, reject) => {
      const onMessage = (message: { type: string }) => {
        if (message.type === 'measuring') {
          cpuAt = process.cpuUsage();
          machineAt = machineCpu();
          postgresAt = postgresCpu();
          if (inspector) {
            inspector.connect();
            void inspector.post('Profiler.enable').then(() => inspector.post('Profiler.start'));
          }
        } else if (message.type === 'done') {
          load.child.off('message', onMessage);
          load.child.off('exit', reject);
          resolve(message as LoadDone);
        }
      };
      load.child.on('message', onMessage);
      load.child.once('exit', reject);
    });
    load.child.send(job);
    const result = await done;
    const cpu = process.cpuUsage(cpuAt);
    const machine = machineCpu();
    const postgresMs = cpuSince(postgresAt, postgresCpu());
    if (inspector && profileFile) {
      const { profile: recorded } = await inspector.post('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify(recorded));
      inspector.disconnect();
      log(`CPU profile of the server during the measured flow steps: ${profileFile}`);
    }
    const busy =
      machine && machineAt
        ? (machine.busy - machineAt.busy) / Math.max(1, machine.total - machineAt.total)
        : null;
    return {
      ...result,
      serverCpuMs: (cpu.user + cpu.system) / 1000,
      serverKernelShare: round(cpu.system / Math.max(1, cpu.user + cpu.system), 2),
      postgresMs,
      machineBusy: busy === null ? null : round(busy, 3),
    };
  }
  const phase = { connections: CONNECTIONS, warmupS: WARMUP, durationS: DURATION };
  async function floor(url: string, status: number, description: string, inThisProcess: boolean) {
    log(
      `floor: ${description}, ${CONNECTIONS} concurrent callers, ${WARMUP}s warm-up, ${DURATION}s measured`,
    );
    const run = await measure({ kind: 'floor', url, status, ...phase });
    const perRequest = (ms: number) => round(ms / Math.max(1, run.starts.length), 3);
    return {
      description,
      samples: run.starts.length,
      failures: run.failures,
      requestsPerSecond: Math.round(run.starts.length / run.wallS),
      latencyMs: percentiles(run.starts),
      ...(inThisProcess
        ? {
            serverCpuMsPerRequest: perRequest(run.serverCpuMs),
            serverKernelCpuShare: run.serverKernelShare,
          }
        : {}),
      clientCpuMsPerRequest: perRequest(run.cpuMs),
      machineCpuBusy: run.machineBusy,
    };
  }

  const appFloor = await floor(
    `${base}/auth/token_exchange`,
    403,
    "the app's cheapest POST: /auth/token_exchange refused (403, SAML off) before any database work",
    true,
  );

  log(`flow steps: ${CONNECTIONS} concurrent flows, ${WARMUP}s warm-up, ${DURATION}s measured`);
  const flow = await measure({ kind: 'flow', base, ...phase }, true);
  const { starts, steps, failures } = flow;
  const perFlow = (ms: number) => round(ms / Math.max(1, steps.length), 3);

  const bareFloor = await floor(
    `http://127.0.0.1:${bare.message.port}/floor`,
    200,
    'bare Fastify (no plugins, no database) in a child process answering a tiny JSON POST',
    false,
  );
  await Promise.all([stopChild(load.child), stopChild(bare.child)]);

  // --- Session check ------------------------------------------------------------------------
  // One user per token: at most AUTH_SESSION_LIMIT sessions per user stay alive.
  const issue = async () => {
    const [user] = await database.db.insert(authUsers).values({}).returning();
    const issued = await provider.sessions.issue(database.db, {
      userId: user!.id,
      email: null,
      amr: ['otp'],
      ip: null,
      userAgent: null,
      now: new Date(),
    });
    return issued.token;
  };
  const token = await issue();
  await verifyToken(token);
  log(`session check: ${ITERATIONS} calls of verifyToken on one token (cached)`);
  let t0 = performance.now();
  for (let i = 0; i < ITERATIONS; i++) await verifyToken(token);
  const cachedMs = (performance.now() - t0) / ITERATIONS;

  const fresh: string[] = [];
  for (let i = 0; i < 300; i++) fresh.push(await issue());
  // Every fresh token needs its signature checked and its session row read once.
  t0 = performance.now();
  for (const t of fresh) await verifyToken(t);
  const firstSeenMs = (performance.now() - t0) / fresh.length;

  const stepStats = percentiles(steps);
  const result = {
    at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      node: process.version,
      load1: os.loadavg()[0],
    },
    database: 'postgres',
    flowStep: {
      description:
        'register_client_capabilities on a fresh login flow (no password hashing), over HTTP',
      connections: CONNECTIONS,
      client: CLIENT,
      /** Where the clients run: a child process of their own (not the server's event loop). */
      loadGenerator: 'child process',
      durationS: DURATION,
      samples: steps.length,
      failures,
      stepsPerSecond: Math.round(steps.length / flow.wallS),
      latencyMs: stepStats,
      flowStartLatencyMs: percentiles(starts),
      /** CPU time of the server process (app + provider; the clients run elsewhere) per start + step. */
      processCpuMsPerFlow: perFlow(flow.serverCpuMs),
      /** Share of that CPU time spent in the kernel (socket reads and writes: HTTP and PostgreSQL). */
      processKernelCpuShare: flow.serverKernelShare,
      /** CPU time of the load generator per start + step. */
      clientCpuMsPerFlow: perFlow(flow.cpuMs),
      /** CPU time of all PostgreSQL processes on this machine per start + step (others' work included). */
      postgresCpuMsPerFlow: perFlow(flow.postgresMs),
      /** Share of all cores busy during the measured window (everything on the machine). */
      machineCpuBusy: flow.machineBusy,
      /** step p95 / app floor p95: what the step adds over the app's cheapest POST. */
      p95VsFloor: round(stepStats.p95 / appFloor.latencyMs.p95, 2),
      p95VsBareFloor: round(stepStats.p95 / bareFloor.latencyMs.p95, 2),
      target: { p95Ms: TARGET.flowStepP95Ms, met: stepStats.p95 <= TARGET.flowStepP95Ms },
    },
    floor: appFloor,
    bareFloor,
    sessionCheck: {
      description:
        "the product's verifyToken, in-process: signature result and session answer cached",
      iterations: ITERATIONS,
      cachedMsPerCall: Math.round(cachedMs * 10_000) / 10_000,
      firstSeenTokenMsPerCall: Math.round(firstSeenMs * 1000) / 1000,
      target: { msPerCall: TARGET.sessionCheckMs, met: cachedMs <= TARGET.sessionCheckMs },
    },
  };
  const dir = path.join(here, 'results');
  mkdirSync(dir, { recursive: true });
  const json = JSON.stringify(result, null, 2);
  writeFileSync(path.join(dir, `auth-${result.at.replace(/[:.]/g, '-')}.json`), json);
  writeFileSync(path.join(dir, 'auth-latest.json'), json);
  console.log(json);
  log(
    `flow step p95 ${stepStats.p95} ms at ${result.flowStep.stepsPerSecond} steps/s; floor p95 ${appFloor.latencyMs.p95} ms ` +
      `(bare ${bareFloor.latencyMs.p95} ms); ratio ${result.flowStep.p95VsFloor}× (bare ${result.flowStep.p95VsBareFloor}×); ` +
      `server CPU ${result.flowStep.processCpuMsPerFlow} ms per start + step [p95 ≤ ${TARGET.flowStepP95Ms} ms: ${result.flowStep.target.met ? 'pass' : 'FAIL'}]`,
  );
  provider.keys.stop();
  await app.close();
} finally {
  await database.close();
  if (!process.env.BENCH_KEEP_DB)
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}
