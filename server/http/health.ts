import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { migrationsFolder, type Db } from '../db/client';

// Probes for the orchestrator or load balancer, outside the product contract: they are not
// part of what the web app or an integrator calls, need no token and never change.
//   GET /healthz  liveness: the process answers (no database), so a restart helps only if not.
//   GET /readyz   readiness: the database answers within READINESS_TIMEOUT_MS and every
//                 committed migration is applied; 503 with a reason otherwise.
// `/health` is deliberately not one of them (404): it means liveness to some tools and
// readiness to others, and a probe pointed at the wrong one is better found at once.

type Unready =
  | { reason: 'database_timeout' }
  | { reason: 'database_unreachable' }
  | { reason: 'migrations_pending'; pending: number };

const send = (reply: FastifyReply, status: number, body: object) =>
  reply.code(status).header('cache-control', 'no-store').type('application/json').send(body);

/** The committed migrations (drizzle's journal), by the time drizzle records them with. */
const committed = () => readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis);

async function readiness(db: Db, expected: number[]): Promise<Unready | null> {
  let applied: Set<number>;
  try {
    const { rows } = (await db.execute(
      sql`SELECT created_at FROM drizzle.__drizzle_migrations`,
    )) as unknown as { rows: Array<{ created_at: string | number }> };
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

export function registerHealth(app: FastifyInstance, db: Db, timeoutMs: number) {
  const expected = committed();

  app.get('/healthz', { logLevel: 'warn' }, async (_request, reply) =>
    send(reply, 200, { status: 'ok' }),
  );

  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    // A database that does not answer (a full pool, a network partition) would hold the
    // probe open; the probe answers within the timeout instead.
    const timeout = new Promise<Unready>((resolve) => {
      timer = setTimeout(() => resolve({ reason: 'database_timeout' }), timeoutMs);
    });
    const unready = await Promise.race([readiness(db, expected), timeout]).finally(() =>
      clearTimeout(timer),
    );
    return unready
      ? send(reply, 503, { status: 'unavailable', ...unready })
      : send(reply, 200, { status: 'ok' });
  });
}
