import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from './test-app';

/** The real app on a free local port, on a fresh migrated database, serving dist/web. */
export async function startTestServer(): Promise<{
  url: string;
  testApp: TestApp;
  close(): Promise<void>;
}> {
  const testApp = await createTestApp();
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = testApp.app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, testApp, close: () => testApp.close() };
}
