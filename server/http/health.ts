import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { FastifyInstance, FastifyReply } from 'fastify';
import pg from 'pg';
import { migrationsFolder, type Db } from '../db/client';
import type { Drain } from './drain';

// Probes for the orchestrator or load balancer, outside the product contract: they are not
// part of what the web app or an integrator calls, need no token and never change.
//   GET /healthz  liveness: the process answers (no database), so a restart helps only if not.
//   GET /readyz   readiness: the database answers within READINESS_TIMEOUT_MS and every
//                 committed migration is applied; 503 with a reason otherwise, and 503
//                 `draining` once shutdown began (server/http/drain.ts).
// Readiness asks the database on a connection of its own, not one from the app's pool: a pool
// that is busy (every connection lent, callers waiting) is a busy instance, not a broken one,
// and taking it out of service would only move its load onto the others.
// `/health` is deliberately not one of them (404): it means liveness to some tools and
// readiness to others, and a probe pointed at the wrong one is better found at once.

type Unready =
  | { reason: 'draining' }
  | { reason: 'database_timeout' }
  | { reason: 'database_unreachable' }
  | { reason: 'migrations_pending'; pending: number };

const send = (reply: FastifyReply, status: number, body: object) =>
  reply.code(status).header('cache-control', 'no-store').type('application/json').send(body);

/** The committed migrations (drizzle's journal), by the time drizzle records them with. */
const committed = () => readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis);

type Rows = Array<Record<string, unknown>>;

/** Where readiness asks the database: a dedicated connection (PostgreSQL) or the embedded one. */
interface Probe {
  query(text: string): Promise<Rows>;
  /** The last query did not answer in time: do not reuse its connection. */
  discard(): void;
  close(): Promise<void>;
}

function probeOf(db: Db, timeoutMs: number): Probe {
  const client = (db as unknown as { $client: unknown }).$client;
  if (!(client instanceof pg.Pool)) {
    return {
      query: async (text) => ((await db.execute(sql.raw(text))) as unknown as { rows: Rows }).rows,
      discard: () => {},
      close: async () => {},
    };
  }
  const { connectionString, options } = client.options as {
    connectionString?: string;
    options?: string;
  };
  let current: Promise<pg.Client> | null = null;
  const drop = () => {
    const dropped = current;
    current = null;
    void dropped?.then((c) => c.end()).catch(() => {});
  };
  const connect = () => {
    const connection = new pg.Client({
      ...(connectionString ? { connectionString } : {}),
      ...(options ? { options } : {}),
      connectionTimeoutMillis: timeoutMs,
      application_name: 'sprechstunde-readiness',
    });
    const connecting = connection.connect().then(() => connection);
    // A dropped connection (database restart) is replaced at the next probe.
    connection.on('error', () => {
      if (current === connecting) drop();
    });
    connection.on('end', () => {
      if (current === connecting) current = null;
    });
    connecting.catch(() => {
      if (current === connecting) current = null;
    });
    return connecting;
  };
  return {
    async query(text) {
      current ??= connect();
      const connection = await current;
      return (await connection.query(text)).rows as Rows;
    },
    discard: drop,
    async close() {
      const closing = current;
      current = null;
      await closing?.then((c) => c.end()).catch(() => {});
    },
  };
}

async function readiness(probe: Probe, expected: number[]): Promise<Unready | null> {
  let applied: Set<number>;
  try {
    const rows = await probe.query('SELECT created_at FROM drizzle.__drizzle_migrations');
    applied = new Set(rows.map((r) => Number(r.created_at)));
  } catch (error) {
    // No table yet: the database was never migrated.
    if (
      (error as { cause?: { code?: string }; code?: string }).cause?.code === '42P01' ||
      (error as { code?: string }).code === '42P01'
    ) {
      return { reason: 'migrations_pending', pending: expected.length };
    }
    return { reason: 'database_unreachable' };
  }
  // A database ahead of this code (a newer instance migrated during a rolling deploy) stays
  // ready: migrations are written so the previous version keeps working.
  const pending = expected.filter((when) => !applied.has(when)).length;
  return pending > 0 ? { reason: 'migrations_pending', pending } : null;
}

export function registerHealth(app: FastifyInstance, db: Db, timeoutMs: number, drain: Drain) {
  const expected = committed();
  const probe = probeOf(db, timeoutMs);
  app.addHook('onClose', async () => probe.close());

  app.get('/healthz', { logLevel: 'warn' }, async (_request, reply) =>
    send(reply, 200, { status: 'ok' }),
  );

  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    if (drain.draining) return send(reply, 503, { status: 'unavailable', reason: 'draining' });
    let timer: NodeJS.Timeout | undefined;
    // A database that does not answer (a network partition, a lock) would hold the probe
    // open; the probe answers within the timeout instead.
    const timeout = new Promise<Unready>((resolve) => {
      timer = setTimeout(() => resolve({ reason: 'database_timeout' }), timeoutMs);
    });
    const unready = await Promise.race([readiness(probe, expected), timeout]).finally(() =>
      clearTimeout(timer),
    );
    if (unready?.reason === 'database_timeout') probe.discard();
    return unready
      ? send(reply, 503, { status: 'unavailable', ...unready })
      : send(reply, 200, { status: 'ok' });
  });
}
