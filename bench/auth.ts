/**
 * npm run bench:auth — the authentication provider's two figures (issue 3), on real PostgreSQL.
 *
 * 1. Creates a scratch database spr_bench_auth_<random> on DATABASE_URL's server (default
 *    postgres://postgres@127.0.0.1:5432), migrates it, builds the app with the provider
 *    mounted at /auth (as server/main.ts does) and listens on 127.0.0.1.
 * 2. Flow step: BENCH_CONNECTIONS (default 20) concurrent clients, each repeatedly starting
 *    a login flow over HTTP (`POST /auth/login`: creates the flow row) and answering its
 *    preflight (`register_client_capabilities`: claims the flow, validates, renders, stores a
 *    new CSRF token). Neither hashes a password. Latency per request, client-side, in this
 *    process (so the client's own work is included: a conservative figure), and the CPU time
 *    this process spent per start + step (`processCpuMsPerFlow`, server and client).
 * 3. Session check in the product API: the product's verifyToken (createTokenVerifier with
 *    the provider's keys and session table, as main.ts wires it) on one token, many times
 *    after the first call (key and session answer cached), and, for comparison, a full
 *    signature check of a token not seen before.
 * 4. Writes bench/results/auth-<timestamp>.json and auth-latest.json, prints them, drops the
 *    database. A missed target is reported, not an error.
 *
 * Knobs: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS,
 * BENCH_CLIENT=fetch (the load generator uses fetch instead of node:http),
 * BENCH_VERIFY_ITERATIONS (default 200000), BENCH_KEEP_DB=1, BENCH_CPU_PROFILE=<file> (a V8
 * CPU profile of this process during the measured flow steps only, for chrome://inspect).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
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
import { createMailer } from '../server/adapters/mail/mailer';
import { createAuthProvider } from '../server/auth-provider/provider';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const DURATION = env('BENCH_DURATION', 10);
const WARMUP = env('BENCH_WARMUP', 2);
const CONNECTIONS = env('BENCH_CONNECTIONS', 20);
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
const log = (...args: unknown[]) => console.log(`[bench:auth ${(performance.now() / 1000).toFixed(1)}s]`, ...args);

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return { p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), mean: round(mean), max: round(sorted.at(-1) ?? NaN) };
}

const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const database = connectPostgres(dbUrl, 10);
try {
  await database.migrate();
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: dbUrl });
  const rateLimits = createRateLimiters({ kind: 'memory' }, {});
  const provider = await createAuthProvider({
    db: database.db,
    config,
    rateLimits,
    mailer: createMailer({ db: database.db, from: config.MAIL_FROM }),
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

  // --- Flow steps -------------------------------------------------------------------------
  const starts: number[] = [];
  const steps: number[] = [];
  let failures = 0;
  let measuring = false;
  // node:http with kept-alive sockets costs this process far less CPU per request than
  // fetch (WHATWG streams); BENCH_CLIENT=fetch measures with fetch as the first figures did.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const send = (url: string, payload: string) =>
    CLIENT === 'fetch'
      ? fetch(base + url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload }).then(async (res) => ({
          status: res.status,
          text: await res.text(),
        }))
      : new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = http.request(
            base + url,
            { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.end(payload);
        });
  const post = async (url: string, body: unknown) => {
    const t0 = performance.now();
    const res = await send(url, body === undefined ? '' : JSON.stringify(body));
    const ms = performance.now() - t0;
    const ok = res.status >= 200 && res.status < 300;
    if (!ok && failures < 3) log(`${url} answered ${res.status}: ${res.text.slice(0, 200)}`);
    const json = (res.text ? JSON.parse(res.text) : {}) as { name: string; csrf_token: string; actions: Record<string, { href: string }> };
    return { ms, ok, json };
  };
  async function client(until: () => boolean) {
    while (!until()) {
      const first = await post('/auth/login', undefined);
      const href = first.json.actions?.register_client_capabilities?.href;
      if (!first.ok || !href) {
        failures += 1;
        continue;
      }
      const second = await post(`/auth${href}`, {
        input_data: { webauthn_available: true, webauthn_conditional_mediation_available: false, webauthn_platform_authenticator_available: false },
        csrf_token: first.json.csrf_token,
      });
      if (!second.ok || second.json.name !== 'login_init') failures += 1;
      if (measuring) {
        starts.push(first.ms);
        steps.push(second.ms);
      }
    }
  }
  log(`flow steps: ${CONNECTIONS} concurrent flows, ${WARMUP}s warm-up, ${DURATION}s measured`);
  const warmEnd = Date.now() + WARMUP * 1000;
  const end = warmEnd + DURATION * 1000;
  const profileFile = process.env.BENCH_CPU_PROFILE;
  const inspector = profileFile ? new Session() : null;
  let cpuAtStart = process.cpuUsage();
  setTimeout(() => {
    measuring = true;
    cpuAtStart = process.cpuUsage();
    if (inspector) {
      inspector.connect();
      void inspector.post('Profiler.enable').then(() => inspector.post('Profiler.start'));
    }
  }, WARMUP * 1000);
  await Promise.all(Array.from({ length: CONNECTIONS }, () => client(() => Date.now() >= end)));
  // CPU time of this process (server and client) per measured start + step.
  const cpu = process.cpuUsage(cpuAtStart);
  const processCpuMsPerFlow = Math.round(((cpu.user + cpu.system) / 1000 / Math.max(1, steps.length)) * 1000) / 1000;
  if (inspector && profileFile) {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
    inspector.disconnect();
    log(`CPU profile of the measured flow steps: ${profileFile}`);
  }

  // --- Session check ------------------------------------------------------------------------
  // One user per token: at most AUTH_SESSION_LIMIT sessions per user stay alive.
  const issue = async () => {
    const [user] = await database.db.insert(authUsers).values({}).returning();
    const issued = await provider.sessions.issue(database.db, { userId: user!.id, email: null, amr: ['otp'], ip: null, userAgent: null, now: new Date() });
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
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, load1: os.loadavg()[0] },
    database: 'postgres',
    flowStep: {
      description: 'register_client_capabilities on a fresh login flow (no password hashing), over HTTP',
      connections: CONNECTIONS,
      client: CLIENT,
      durationS: DURATION,
      samples: steps.length,
      failures,
      stepsPerSecond: Math.round(steps.length / DURATION),
      latencyMs: stepStats,
      flowStartLatencyMs: percentiles(starts),
      /** CPU time of the Node process (server and load generator) per measured start + step. */
      processCpuMsPerFlow,
      target: { p95Ms: TARGET.flowStepP95Ms, met: stepStats.p95 <= TARGET.flowStepP95Ms },
    },
    sessionCheck: {
      description: "the product's verifyToken, in-process: signature result and session answer cached",
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
  provider.keys.stop();
  agent.destroy();
  await app.close();
} finally {
  await database.close();
  if (!process.env.BENCH_KEEP_DB) await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}
