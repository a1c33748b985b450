import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { isConnectionFailure, loggableError } from './problem';

declare module 'fastify' {
  interface FastifyInstance {
    /** Logs a database outage once per change; unset: each failure is logged (problem.ts). */
    databaseOutage?: OutageLog;
  }
}

/**
 * A database outage in the log as what it is: one error when the database stops answering,
 * one line when it answers again (with how long it was gone and how many failures it caused),
 * instead of an error line for every refused request, job poll and sign-in flow in between
 * (a restart wrote hundreds). While it is down, a probe asks it every `probeEveryMs`.
 */
export interface OutageLog {
  /**
   * Whether `error` says the database cannot be reached; such an error is logged only when
   * it opens an outage. Other errors are left to the caller (false).
   */
  connectionFailure(error: unknown, context: Record<string, unknown>): boolean;
  /** Stops the probe (the app closes). */
  stop(): void;
}

export function createOutageLog(options: {
  log: FastifyBaseLogger;
  db: Db;
  probeEveryMs?: number;
}): OutageLog {
  const { log, db } = options;
  let down: { since: number; failures: number; probe: NodeJS.Timeout } | null = null;
  let probing = false;

  const probe = async () => {
    if (!down || probing) return;
    probing = true;
    try {
      await db.execute(sql`SELECT 1`);
      const { since, failures } = down;
      clearInterval(down.probe);
      down = null;
      log.warn({ downMs: Date.now() - since, failures }, 'database reachable again');
    } catch {
      // Still down: the outage's first line said so.
    } finally {
      probing = false;
    }
  };

  return {
    connectionFailure(error, context) {
      if (!isConnectionFailure(error)) return false;
      if (down) {
        down.failures++;
        return true;
      }
      const timer = setInterval(() => void probe(), options.probeEveryMs ?? 1_000);
      timer.unref();
      down = { since: Date.now(), failures: 1, probe: timer };
      log.error(
        { ...context, error: loggableError(error) },
        'database unreachable: requests are answered 503 until it is back',
      );
      return true;
    },
    stop() {
      if (down) clearInterval(down.probe);
      down = null;
    },
  };
}
