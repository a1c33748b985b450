import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { loggableError } from './problem';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shutdown's first phase (server/main.ts): still serving, no longer ready. */
    drain: Drain;
  }
}

export interface Drain {
  readonly draining: boolean;
  /** From now on `/readyz` answers 503 `draining` and every answer closes its connection. */
  begin(): void;
}

/**
 * Draining before closing, so a load balancer takes the instance out of service before its
 * port closes: while draining, requests are served as before, but each answer carries
 * `Connection: close`, so kept-alive connections end after the answer in flight instead of
 * being cut under a request later. After the drain the server closes; the connections left
 * are idle ones, which Fastify closes (closeIdleConnections) without cutting an answer.
 */
export function registerDrain(app: FastifyInstance): Drain {
  let draining = false;
  const drain: Drain = {
    get draining() {
      return draining;
    },
    begin() {
      draining = true;
    },
  };
  app.decorate('drain', drain);
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  return drain;
}

/**
 * The shutdown of a start command: drain for `drainMs` (the balancer notices `/readyz` 503 and
 * stops sending), then stop listening and close, answers in flight finished. After a crash
 * (`skipDrain`) there is nothing to wait for.
 */
export async function drainThenClose(app: FastifyInstance, drainMs: number, skipDrain = false) {
  if (!skipDrain) {
    app.drain.begin();
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  }
  await app.close();
}

/**
 * How a start command ends on SIGTERM/SIGINT (the start scripts `exec` the server, so the
 * signal a process manager sends to the start command's PID reaches it) or after a crash:
 * `drainThenClose`, then `beforeDatabase` (work of the process that still needs the database),
 * then the database closes; one line says so.
 */
export function shutDownOnSignal(
  app: FastifyInstance,
  {
    drainMs,
    database,
    beforeDatabase,
  }: {
    drainMs: number;
    database: { close(): Promise<void> };
    beforeDatabase?: () => Promise<void>;
  },
) {
  closeWithGrace({ delay: drainMs + 10_000 }, async ({ signal, err }) => {
    const stopping = performance.now();
    if (err) app.log.error({ error: loggableError(err) }, 'shutting down after an error');
    await drainThenClose(app, drainMs, Boolean(err));
    await beforeDatabase?.();
    await database.close();
    app.log.info(
      {
        signal: signal ?? null,
        drainMs: err ? 0 : drainMs,
        shutdownMs: Math.round(performance.now() - stopping),
      },
      'shut down: requests drained, server and database closed',
    );
  });
}
