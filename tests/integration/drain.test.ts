import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
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
  api = await createApi({ env: { READINESS_TIMEOUT_MS: '1500' } });
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  port = (api.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  agent.destroy();
  if (api.app.server.listening) await api.close();
});

/** One GET over the kept-alive agent: status, Connection header, and whether the socket was reused. */
const get = (path: string) =>
  new Promise<{ status: number; connection: string | undefined; reused: boolean; body: string }>(
    (resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            connection: res.headers.connection,
            reused: req.reusedSocket,
            body,
          }),
        );
      });
      req.on('error', reject);
    },
  );

/** Statements of this test's database sleeping now (seen from a connection of its own). */
async function sleeping() {
  const { connectionString } = (api.database.db as unknown as { $client: pg.Pool }).$client.options;
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep%' AND state = 'active'`,
    );
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe.skipIf(!process.env.DATABASE_URL)('readiness under load', () => {
  it('stays ready while every pooled connection is lent out and callers wait for one', async () => {
    // Six statements of 3 s on the test database's pool of 5: every connection lent, one
    // caller waiting. (Drizzle runs a query when it is awaited: Promise.resolve starts them.)
    const held = Array.from({ length: 6 }, () =>
      Promise.resolve(api.database.db.execute(sql`SELECT pg_sleep(3)`)).catch(() => null),
    );
    await expect
      .poll(async () => (await sleeping()) as number, { timeout: 5_000, interval: 50 })
      .toBe(5);
    // Waiting for the pool, the probe would answer 503 database_timeout after 1.5 s.
    const res = await get('/readyz');
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
