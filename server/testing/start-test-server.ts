import type { AddressInfo } from 'node:net';
import { seed } from '../db/seed/seed';
import { createTestApp, type TestApp } from './test-app';

/**
 * The real app on a free local port, on a fresh migrated database with the German demo data,
 * serving dist/web, with the authentication provider at /auth (mails captured, readable at
 * /dev/mailbox), so end-to-end tests sign in like a person does.
 */
export async function startTestServer(): Promise<{
  url: string;
  testApp: TestApp;
  close(): Promise<void>;
}> {
  const testApp = await createTestApp({ withAuthProvider: true });
  await seed(testApp.database.db);
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = testApp.app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, testApp, close: () => testApp.close() };
}
