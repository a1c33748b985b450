import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's metrics, served in Prometheus's text format at `GET /metrics`
 * (server/metrics/endpoint.ts). Counters count what this process did since it started;
 * Prometheus sums them over instances. Gauges read at scrape time (pool, job queues) describe
 * this process's pool and the shared job tables. Labels never carry ids, addresses or raw URLs:
 * operations are named by the contract's operationId or the route pattern.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequestDuration = new Histogram({
  name: 'sprechstunde_http_request_duration_seconds',
  help: 'Answered HTTP requests by operation (operationId or route pattern), method and status, with their latency',
  labelNames: ['operation', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export type MessageChannel = 'email' | 'sms' | 'webhook';
/**
 * sent: accepted by the mail server, SMS provider or webhook receiver; failed: a try that
 * failed and may be retried; refused: the other side refused it for good (SMTP 5xx, a webhook
 * target the address rules refuse).
 */
export type MessageOutcome = 'sent' | 'failed' | 'refused';

const messages = new Counter({
  name: 'sprechstunde_messages_total',
  help: 'Tries to send a mail, an SMS or a webhook, by channel and outcome',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});
for (const channel of ['email', 'sms', 'webhook'] as const) {
  for (const outcome of ['sent', 'failed', 'refused'] as const) messages.labels(channel, outcome);
}
export const countMessage = (channel: MessageChannel, outcome: MessageOutcome) =>
  messages.labels(channel, outcome).inc();

const signIns = new Counter({
  name: 'sprechstunde_sign_in_steps_total',
  help: "Answers of the sign-in provider's login and registration flows: success, or the error code of a refused step",
  labelNames: ['flow', 'outcome'] as const,
  registers: [registry],
});
for (const flow of ['login', 'registration'] as const) signIns.labels(flow, 'success');
export const countSignInStep = (flow: string, outcome: string) =>
  signIns.labels(flow, outcome).inc();

const rateLimitHits = new Counter({
  name: 'sprechstunde_rate_limit_hits_total',
  help: 'Requests refused with 429 because a rate limit was reached, by limit',
  labelNames: ['limit'] as const,
  registers: [registry],
});
export const countRateLimitHit = (limit: string) => rateLimitHits.labels(limit).inc();

const jobFailures = new Counter({
  name: 'sprechstunde_job_failures_total',
  help: "Failed tries of background jobs, by queue (pg-boss retries them until the queue's limit)",
  labelNames: ['queue'] as const,
  registers: [registry],
});
export const countJobFailure = (queue: string) => jobFailures.labels(queue).inc();

/** Read at scrape time from what the app registered (endpoint.ts). */
export const poolConnections = new Gauge({
  name: 'sprechstunde_db_pool_connections',
  help: "Connections of this process's database pool: open, idle, in_use; waiting counts callers waiting for one",
  labelNames: ['state'] as const,
  registers: [registry],
});
export const poolSize = new Gauge({
  name: 'sprechstunde_db_pool_max',
  help: "Largest number of connections this process's pool opens (DATABASE_POOL_SIZE)",
  registers: [registry],
});
export const jobsWaiting = new Gauge({
  name: 'sprechstunde_jobs',
  help: 'Jobs not yet done, over all instances, by queue and state (created: waiting, retry: waiting after a failed try, active: running)',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
});
export const jobsOldestDue = new Gauge({
  name: 'sprechstunde_jobs_oldest_due_seconds',
  help: 'How long the oldest job that is due (created or retry, start time passed) has waited, by queue; 0 when none waits',
  labelNames: ['queue'] as const,
  registers: [registry],
});
export const jobsFailedRecently = new Gauge({
  name: 'sprechstunde_jobs_failed_last_hour',
  help: 'Jobs that failed for good (no try left) in the last hour, over all instances, by queue',
  labelNames: ['queue'] as const,
  registers: [registry],
});
