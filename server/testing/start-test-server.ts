import { createServer, type AddressInfo } from 'node:net';
import { seed } from '../seed/seed';
import { createTestApp, type TestApp } from './test-app';

/** A port the kernel just handed out and released, so the app's PUBLIC_URL can name it. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * The real app on a free local port, on a fresh migrated database with the German demo data,
 * serving dist/web, with the authentication provider at /auth (mails captured, readable at
 * /dev/mailbox), so end-to-end tests sign in like a person does.
 *
 * The origin is `http://localhost:<port>` and PUBLIC_URL says so: WebAuthn needs a host name as
 * relying-party id (Chromium refuses an IP address), and links in e-mails must lead back here.
 */
export async function startTestServer(
  /** Settings beyond the defaults (an e2e file that needs job workers starts its own server). */
  options: { env?: Record<string, string> } = {},
): Promise<{
  url: string;
  testApp: TestApp;
  close(): Promise<void>;
}> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const testApp = await createTestApp({
    withAuthProvider: true,
    env: { PUBLIC_URL: url, ...options.env },
    // The e2e files share this server and sign the same demo accounts in from one address,
    // several a minute, as no person does: the passcode mail limits would refuse them.
    rateLimits: {
      passcodeSend: { points: 100, durationSeconds: 60 },
      passcodeSendCaller: { points: 1000, durationSeconds: 15 * 60 },
      passcodeSendAddress: { points: 1000, durationSeconds: 15 * 60 },
    },
  });
  await seed(testApp.database.db);
  await testApp.app.listen({ host: '127.0.0.1', port });
  return { url, testApp, close: () => testApp.close() };
}
