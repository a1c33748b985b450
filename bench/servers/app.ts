/**
 * Child process: the real app (buildApp) on the benchmark database, request logging off,
 * tokens checked against the benchmark's test issuer (BENCH_JWKS). Reports its port over IPC.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { JSONWebKeySet } from 'jose';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { connectPostgres } from '../../server/db/client';
import { createTokenVerifier } from '../../server/http/auth';
import { serveChild } from './serve-child';
import { createRateLimiters } from '../../server/http/rate-limit';

const config = loadConfig();
if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required');
const database = connectPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
const jwks = JSON.parse(process.env.BENCH_JWKS ?? '') as JSONWebKeySet;

const app = await buildApp(
  {
    config,
    db: database.db,
    verifyToken: createTokenVerifier({
      issuer: config.AUTH_ISSUER,
      audience: config.AUTH_AUDIENCE,
      jwks,
    }),
    now: () => new Date(),
    rateLimits: createRateLimiters({ kind: 'memory' }),
  },
  // BENCH_APP_LOG=error shows the app's errors (failed requests) on the console.
  { logger: process.env.BENCH_APP_LOG ? ({ level: process.env.BENCH_APP_LOG } as never) : false },
);
// BENCH_APP_CPU_PROFILE=<file>: a V8 CPU profile of the app's whole run (chrome://inspect).
const profileFile = process.env.BENCH_APP_CPU_PROFILE;
const profiler = profileFile ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
await serveChild(
  app,
  async () => {
    if (profiler && profileFile) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify(profile));
    }
    await database.close();
  },
  config.DATABASE_POOL_SIZE,
);
