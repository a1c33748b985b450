import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainThenClose } from '../../server/http/drain';
import { createApi, type Api } from '../support/api';

// Shutdown in two phases (server/main.ts): a drain in which the instance still serves but is no
// longer ready, so a load balancer takes it out of service, then the close. And readiness that
// a busy pool does not take away.

let api: Api;
let port: number;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  api = await createApi({ env: { READINESS_TIMEOUT_MS: '1000', DATABASE_POOL_SIZE: '3' } });
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  port = (api.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  agent.destroy();
  if (api.app.server.listening) await api.close();
});

/** One GET over the kept-alive agent: status, Connection header, and whether the socket was reused. */
const get = (path: string) =>
  new Promise<{ status: number; connection: string | undefined; reused: boolean; body: string }>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode!, connection: res.headers.connection, reused: req.reusedSocket, body }),
      );
    });
    req.on('error', reject);
  });

describe.skipIf(!process.env.DATABASE_URL)('readiness under load', () => {
  it('stays ready while every pooled connection is lent out and callers wait for one', async () => {
    // Four statements of 1.5 s on a pool of 3 (createTestDatabase's pool is 5: fill that too).
    const held = Array.from({ length: 6 }, () => api.database.db.execute(sql`SELECT pg_sleep(1.5)`));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const res = await get('/readyz');
    expect(Date.now() - started).toBeLessThan(1_000);
    await Promise.all(held);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
  });
});

describe('draining before the close', () => {
  it('answers readiness 503 draining, still serves, closes each kept-alive connection after its answer, then closes without cutting one', async () => {
    const before = await get('/healthz');
    expect(before.status).toBe(200);
    expect(before.connection).toBe('keep-alive');
    const again = await get('/readyz');
    expect(again.status).toBe(200);
    expect(again.reused).toBe(true);

    const closing = drainThenClose(api.app, 500);
    expect(api.app.drain.draining).toBe(true);
    const ready = await get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: 'unavailable', reason: 'draining' });
    expect(ready.connection).toBe('close');
    // Served during the drain, on a new connection (the last answer closed the old one).
    const served = await get('/api/openapi.json');
    expect(served.status).toBe(200);
    expect(served.reused).toBe(false);
    expect(served.connection).toBe('close');
    expect(api.app.server.listening).toBe(true);

    await closing;
    expect(api.app.server.listening).toBe(false);
    await expect(get('/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });
});
