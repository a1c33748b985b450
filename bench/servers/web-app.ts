/**
 * Child process of bench/web.ts: the real app as end-to-end tests run it (embedded database,
 * German demo data, the auth provider at /auth, dist/web). Reports its URL over IPC.
 */
import { startTestServer } from '../../server/testing/start-test-server';

const server = await startTestServer();
let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  await server.close();
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('disconnect', shutdown);
process.send?.({ url: server.url });
