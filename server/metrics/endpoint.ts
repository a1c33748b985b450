import { timingSafeEqual, createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import pg from 'pg';
import type { Db } from '../db/client';
import type { Operation } from '../http/contract';
import { notFoundHandler, unauthorized } from '../http/problem';
import { JOBS_SCHEMA } from '../jobs/queue';
import {
  httpRequestDuration,
  jobsFailedRecently,
  jobsOldestDue,
  jobsWaiting,
  poolConnections,
  poolSize,
  registry,
} from './registry';

/** How long a scrape waits for the job tables before it answers without their figures. */
const JOB_QUERY_TIMEOUT_MS = 2_000;

/** The operation a request answered: its contract operationId, else its route pattern. */
function operationOf(request: FastifyRequest): string {
  const operation = (request.routeOptions.config as { operation?: Operation } | undefined)
    ?.operation;
  if (operation) return operation.operationId;
  // No route matched (404): the raw URL would give every probing scanner a series of its own.
  return request.routeOptions.url ?? 'unmatched';
}

const sameToken = (given: string, expected: string) => {
  // Hashes first, so the comparison takes as long whatever the given token's length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
};

type Rows = Array<Record<string, unknown>>;
const rowsOf = (result: unknown) => (result as { rows: Rows }).rows;

async function readJobTables(db: Db) {
  const [queues, waiting, failed] = await Promise.all([
    db.execute(sql.raw(`SELECT name FROM ${JOBS_SCHEMA}.queue`)),
    db.execute(
      sql.raw(`SELECT name, state::text AS state, count(*)::int AS jobs,
         coalesce(extract(epoch FROM now() - min(start_after)
           FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())), 0)::float8 AS oldest
       FROM ${JOBS_SCHEMA}.job WHERE state IN ('created', 'retry', 'active') GROUP BY name, state`),
    ),
    db.execute(
      sql.raw(`SELECT name, count(*)::int AS jobs FROM ${JOBS_SCHEMA}.job
       WHERE state = 'failed' AND completed_on > now() - interval '1 hour' GROUP BY name`),
    ),
  ]);
  jobsWaiting.reset();
  jobsOldestDue.reset();
  jobsFailedRecently.reset();
  // Every queue gets its series, 0 included, so an alert on a figure never sees it vanish.
  for (const { name } of rowsOf(queues)) {
    for (const state of ['created', 'retry', 'active'])
      jobsWaiting.labels(String(name), state).set(0);
    jobsOldestDue.labels(String(name)).set(0);
    jobsFailedRecently.labels(String(name)).set(0);
  }
  const oldest = new Map<string, number>();
  for (const row of rowsOf(waiting)) {
    jobsWaiting.labels(String(row.name), String(row.state)).set(Number(row.jobs));
    oldest.set(String(row.name), Math.max(oldest.get(String(row.name)) ?? 0, Number(row.oldest)));
  }
  for (const [name, seconds] of oldest) jobsOldestDue.labels(name).set(seconds);
  for (const row of rowsOf(failed))
    jobsFailedRecently.labels(String(row.name)).set(Number(row.jobs));
}

/**
 * `GET /metrics` for Prometheus, outside the product contract like the probes: only with
 * `Authorization: Bearer <METRICS_TOKEN>`; without METRICS_TOKEN it does not exist (404).
 * Also times every answered request (operation, method, status).
 */
export function registerMetrics(app: FastifyInstance, deps: { db: Db; token: string | undefined }) {
  app.addHook('onResponse', async (request, reply) => {
    httpRequestDuration
      .labels(operationOf(request), request.method, String(reply.statusCode))
      .observe(reply.elapsedTime / 1000);
  });

  const pool = (deps.db as unknown as { $client: unknown }).$client;
  const readPool = () => {
    if (!(pool instanceof pg.Pool)) return;
    poolSize.set(pool.options.max ?? 10);
    poolConnections.labels('open').set(pool.totalCount);
    poolConnections.labels('idle').set(pool.idleCount);
    poolConnections.labels('in_use').set(pool.totalCount - pool.idleCount);
    poolConnections.labels('waiting').set(pool.waitingCount);
  };

  app.get('/metrics', { logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
    const { token } = deps;
    // Not configured: answered like an API route that does not exist (the web app's fallback
    // would answer 200 with its page).
    if (!token) return notFoundHandler(request, reply);
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!given || !sameToken(given, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthorized('GET /metrics needs the METRICS_TOKEN as bearer token');
    }
    readPool();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error('the job tables did not answer in time')),
        JOB_QUERY_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([readJobTables(deps.db), timeout]);
    } catch {
      // The job figures are left out of this scrape; the rest is still worth having.
      jobsWaiting.reset();
      jobsOldestDue.reset();
      jobsFailedRecently.reset();
    } finally {
      clearTimeout(timer);
    }
    return reply
      .header('cache-control', 'no-store')
      .type(registry.contentType)
      .send(await registry.metrics());
  });
}
