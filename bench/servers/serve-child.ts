import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * The life of a benchmark child server: listen on a free local port, report it to the
 * parent over IPC, and close (then exit) when the parent says so or goes away.
 */
export async function serveChild(
  app: FastifyInstance,
  close: () => Promise<void>,
  poolSize: number,
) {
  await app.listen({ host: '127.0.0.1', port: 0 });
  let closing = false;
  async function shutdown() {
    if (closing) return;
    closing = true;
    await app.close();
    await close();
    process.exit(0);
  }
  process.on('SIGTERM', shutdown);
  process.on('disconnect', shutdown);
  // The parent may be gone before it hears from us (killed, crashed): writing to its IPC
  // channel or to the inherited pipes then fails with EPIPE, which must end this child the
  // orderly way instead of as an unhandled error.
  const parentGone = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_IPC_CHANNEL_CLOSED') void shutdown();
    else throw err;
  };
  process.on('error', parentGone);
  process.stdout.on('error', parentGone);
  process.stderr.on('error', parentGone);
  process.send?.(
    { port: (app.server.address() as AddressInfo).port, poolSize },
    undefined,
    {},
    (err) => {
      if (err) parentGone(err);
    },
  );
}
