import { sql } from 'drizzle-orm';
import pg from 'pg';
import {
  fromDrizzle,
  fromPglite,
  PgBoss,
  systemClock,
  type Clock,
  type ConstructorOptions,
  type JobWithMetadata,
  type PGliteLike,
  type Queue,
} from 'pg-boss';
import type { Db, Tx } from '../db/client';

/** The schema pg-boss keeps its tables in, next to the app's in the same database. */
export const JOBS_SCHEMA = 'pgboss';

export interface RunningJob<T> {
  id: string;
  data: T;
  /** Retries so far (0 on the first try). */
  retryCount: number;
  retryLimit: number;
}

export interface JobContext {
  /** The queue's clock: real time, or the test's clock. */
  now: Date;
}

/** One kind of background work: its queue (retries, expiry) and what a job does. */
export interface JobDefinition<T = unknown> {
  name: string;
  queue?: Omit<Queue, 'name'>;
  /**
   * Per process: `concurrency` workers each fetch up to `batchSize` jobs at once and run them
   * concurrently. Default one job at a time.
   */
  work?: { batchSize: number; concurrency: number };
  /** Throwing fails this try; pg-boss retries with backoff until the queue's retryLimit. */
  run(job: RunningJob<T>, context: JobContext): Promise<unknown>;
}

export interface PeriodicJob {
  name: string;
  /** Cron expression (UTC). */
  cron: string;
}

export interface QueuedJob<T> {
  id: string;
  data: T;
  startAfter: Date;
  state: string;
  retryCount: number;
}

export interface JobQueue {
  /** Whether this process works on jobs by itself (polling), or only when runDue is called. */
  readonly workers: boolean;
  /**
   * Queues a job in the caller's transaction (or directly on the database): it exists only
   * if that transaction commits, so a rolled-back change sends nothing.
   */
  send<T extends object>(
    db: Db | Tx,
    name: string,
    data: T,
    options?: { startAfter?: Date },
  ): Promise<string>;
  /** Cancels, in the caller's transaction, the waiting jobs of `name` whose data contains `match`. */
  cancelWaiting(db: Db | Tx, name: string, match: object): Promise<number>;
  /** Jobs of `name` not yet done (created, retry or active), optionally those whose data contains `match`. */
  waiting<T>(name: string, match?: object): Promise<QueuedJob<T>[]>;
  /** All jobs of `name` in any state (tests and diagnostics). */
  all<T>(name: string, match?: object): Promise<QueuedJob<T>[]>;
  /**
   * Brings the next try of every job of `name` waiting to be retried forward to now, and
   * answers how many: the cause of their failures (a mail server down) is gone, so waiting out
   * each job's own backoff would only delay them.
   */
  retryNow(name: string): Promise<number>;
  /** How many jobs of `name` wait for a retry. */
  retrying(name: string): Promise<number>;
  /**
   * Runs every job that is due now (by the queue's clock), including jobs those jobs queue,
   * and answers how many ran. Deterministic: tests call it instead of waiting for polling.
   */
  runDue(): Promise<number>;
  /** The periodic jobs registered with pg-boss's scheduler. */
  schedules(): Promise<{ name: string; cron: string }[]>;
  now(): Date;
  stop(): Promise<void>;
}

export interface JobQueueOptions {
  /** The app's database; pg-boss runs on the same one (its own pool, or the PGlite instance). */
  db: Db;
  definitions: JobDefinition[];
  periodic?: PeriodicJob[];
  /** Poll and work jobs in this process (production, `npm start`). */
  workers: boolean;
  /** A controllable clock (pg-boss's TestClock) for tests; default the system clock. */
  clock?: Clock;
  pollingIntervalSeconds?: number;
  onError?: (error: unknown, context: string) => void;
}

const NO_JOB = '00000000-0000-0000-0000-000000000000';
const WAITING_STATES = new Set(['created', 'retry', 'active']);

/** pg-boss settings for the database behind the app's Drizzle handle. */
function connectionOf(
  db: Db,
): Pick<ConstructorOptions, 'db' | 'backend' | 'connectionString' | 'max'> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) {
    const { connectionString } = client.options as { connectionString?: string };
    if (!connectionString) throw new Error('The job queue needs the database connection string');
    return { connectionString, max: 4 };
  }
  // The embedded database: one PGlite instance, shared with the app. pg-boss supports it
  // as a backend of its own (single connection, in-process LISTEN/NOTIFY).
  return { db: fromPglite(client as PGliteLike), backend: 'pglite' };
}

const asQueued = <T>(job: JobWithMetadata<T>): QueuedJob<T> => ({
  id: job.id,
  data: job.data,
  startAfter: job.startAfter,
  state: job.state,
  retryCount: job.retryCount,
});

/**
 * Starts pg-boss on the app's database: installs or migrates its schema, creates the queues
 * and periodic schedules, and — with `workers` — polls and works them. Without workers
 * (tests) nothing runs by itself: `runDue()` runs what is due by the queue's clock.
 */
export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const clock = options.clock ?? systemClock;
  const onError = options.onError ?? (() => {});
  const connection = connectionOf(options.db);
  const boss = new PgBoss({
    ...connection,
    schema: JOBS_SCHEMA,
    application_name: 'sprechstunde-jobs',
    // Maintenance (expiring stuck jobs, deleting old ones) and cron only where work is done.
    supervise: options.workers,
    schedule: options.workers,
    // Workers of queues with `notify` wake when a job is queued (NOTIFY at commit), so a
    // sign-in code goes out at once rather than at the next poll.
    useListenNotify: options.workers,
    clock,
  });
  boss.on('error', (error) => onError(error, 'pg-boss'));
  await boss.start();

  const definitions = new Map(options.definitions.map((d) => [d.name, d]));
  for (const definition of definitions.values()) {
    await boss.createQueue(definition.name, definition.queue ?? {});
    // createQueue leaves an existing queue as it was: a queue made by an older version gets
    // today's settings (retries, notify) here; its jobs already queued keep theirs.
    const { policy: _policy, partition: _partition, ...settings } = definition.queue ?? {};
    if (Object.keys(settings).length > 0) await boss.updateQueue(definition.name, settings);
    // Loads the queue into pg-boss's cache now: a later send inside an app transaction must
    // not look it up on another connection (with PGlite, the one the transaction holds).
    await boss.findJobs(definition.name, { id: NO_JOB });
  }
  for (const periodic of options.periodic ?? []) {
    if (!definitions.has(periodic.name)) throw new Error(`No job named ${periodic.name}`);
    await boss.schedule(periodic.name, periodic.cron, null, { tz: 'UTC' });
  }

  const now = () => new Date(clock.now());
  const run = async (definition: JobDefinition, job: JobWithMetadata<unknown>) =>
    definition.run(
      { id: job.id, data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit },
      { now: now() },
    );

  if (options.workers) {
    const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
    for (const definition of definitions.values()) {
      const { batchSize, concurrency } = definition.work ?? { batchSize: 1, concurrency: 1 };
      // Each job of a batch settles on its own: one failed send retries only itself.
      await boss.work(
        definition.name,
        {
          includeMetadata: true,
          batchSize,
          localConcurrency: concurrency,
          perJobResults: true,
          // A full batch means a backlog: fetch the next one at once instead of after a poll.
          burstWhenBatchFull: true,
          pollingIntervalSeconds,
          // Retries come due without a NOTIFY: the backstop poll is the base one.
          notifyPollingIntervalSeconds: pollingIntervalSeconds,
        },
        async (jobs) =>
          Promise.all(
            jobs.map(async (job) => {
              try {
                const output = (await run(definition, job)) ?? null;
                return { id: job.id, status: 'completed' as const, output };
              } catch (error) {
                onError(error, `job ${definition.name}`);
                return {
                  id: job.id,
                  status: 'failed' as const,
                  output: { message: error instanceof Error ? error.message : String(error) },
                };
              }
            }),
          ),
      );
    }
  }

  const findAll = async <T>(name: string, match?: object) =>
    (await boss.findJobs<T>(name, match ? { data: match } : {})).map(asQueued);

  return {
    workers: options.workers,
    now,
    async send(db, name, data, sendOptions = {}) {
      // With a test clock, "now" on the app's own connections is real time, not the clock's
      // (PostgreSQL: the clock lives in pg-boss's sessions), so a job's start is stated.
      const startAfter = sendOptions.startAfter ?? (options.clock ? now() : undefined);
      const id = await boss.send(name, data, {
        ...(startAfter ? { startAfter } : {}),
        db: fromDrizzle(db as never, sql as never),
      });
      if (!id) throw new Error(`pg-boss refused a job for ${name}`);
      return id;
    },
    async cancelWaiting(db, name, match) {
      const adapter = fromDrizzle(db as never, sql as never);
      const jobs = await boss.findJobs(name, { data: match, queued: true, db: adapter });
      if (jobs.length === 0) return 0;
      await boss.cancel(
        name,
        jobs.map((j) => j.id),
        { db: adapter },
      );
      return jobs.length;
    },
    async waiting(name, match) {
      return (await findAll(name, match)).filter((j) => WAITING_STATES.has(j.state)) as never;
    },
    all: findAll,
    async retryNow(name) {
      const { rows } = await boss
        .getDb()
        .executeSql(
          `UPDATE ${JOBS_SCHEMA}.job SET start_after = $2 WHERE name = $1 AND state = 'retry' AND start_after > $2 RETURNING id`,
          [name, now()],
        );
      return rows.length;
    },
    async retrying(name) {
      const { rows } = await boss
        .getDb()
        .executeSql(
          `SELECT count(*)::int AS n FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND state = 'retry'`,
          [name],
        );
      return (rows[0] as { n: number } | undefined)?.n ?? 0;
    },
    async runDue() {
      let ran = 0;
      for (let round = 0; round < 100; round++) {
        let progressed = false;
        for (const definition of definitions.values()) {
          const jobs = await boss.fetch(definition.name, { batchSize: 20, includeMetadata: true });
          for (const job of jobs) {
            progressed = true;
            ran++;
            try {
              const output = await run(definition, job);
              await boss.complete(definition.name, job.id, (output as object | null) ?? null);
            } catch (error) {
              await boss.fail(definition.name, job.id, {
                message: error instanceof Error ? error.message : String(error),
              });
            }
          }
        }
        if (!progressed) break;
      }
      return ran;
    },
    async schedules() {
      return (await boss.getSchedules()).map((s) => ({ name: s.name, cron: s.cron }));
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000, close: connection.db === undefined });
    },
  };
}
