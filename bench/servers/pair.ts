import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../server/config';
import { createTestIssuer } from '../../server/testing/test-auth';
import { startChild } from './child';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The two servers every list benchmark compares: the app (signed-in through a test token
 * issuer) and the bare Fastify + pg baseline, each in its own process with the same pool.
 */
export async function startAppAndBaseline(dbUrl: string, poolSize: number) {
  const config = loadConfig({});
  const issuer = await createTestIssuer(config.AUTH_ISSUER, config.AUTH_AUDIENCE);
  const childEnv = {
    DATABASE_URL: dbUrl,
    DATABASE_POOL_SIZE: String(poolSize),
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    BENCH_JWKS: JSON.stringify(issuer.jwks),
  };
  type Listening = { port: number };
  const [app, baseline] = await Promise.all([
    startChild<Listening>(path.join(here, 'app.ts'), childEnv),
    startChild<Listening>(path.join(here, 'baseline.ts'), childEnv),
  ]);
  return { issuer, app, baseline };
}
