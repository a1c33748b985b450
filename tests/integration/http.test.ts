import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContract } from '../../server/http/contract';
import { createApi, type Api } from '../support/api';
import { expectProblem, expectStatus, type Caller } from './fixtures';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

let api: Api;
let admin: Caller;

const READINESS_TIMEOUT_MS = 1_000;

beforeAll(async () => {
  api = await createApi({ env: { READINESS_TIMEOUT_MS: String(READINESS_TIMEOUT_MS) } });
  admin = await api.signIn('ADMIN');
});
afterAll(() => api.close());

describe('the contract and its documentation', () => {
  it('serves the contract at /api/openapi.json: the 91 operations of the specification and our additions', async () => {
    const res = await api.call('GET', '/api/openapi.json');
    expectStatus(res, 200);
    expect(String(res.headers['content-type'])).toContain('application/json');
    expect(res.body.openapi).toBe('3.1.0');
    const operations = Object.values(
      res.body.paths as Record<string, Record<string, unknown>>,
    ).flatMap((item) => Object.keys(item).filter((k) => METHODS.includes(k)));
    // The specification lists 91; the calendar feed added its own
    // (docs/decisions/0038-calendar-feed.md).
    expect(operations.length).toBeGreaterThanOrEqual(91);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(readContract())));
  });

  it('serves the API documentation as HTML at /api/docs', async () => {
    const res = await api.call('GET', '/api/docs');
    expectStatus(res, 200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    expect(String(res.body)).toMatch(/<html/i);
    expect(String(res.body)).toMatch(/swagger/i);
  });
});

describe('security headers', () => {
  it('sends a strict CSP and nosniff on API answers, errors included', async () => {
    const answers = [
      await api.call('GET', '/api/coach', { as: admin }),
      await api.call('GET', '/api/coach'),
      await api.call('GET', '/api/no-such-route'),
      await api.call('GET', '/api/openapi.json'),
    ];
    for (const res of answers) {
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      // No video host is configured here: media only from the app itself, no placeholder host.
      expect(csp).toContain("media-src 'self';");
      expect(csp).not.toContain('sprechstunde.example');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('request ids', () => {
  it('echoes a well-formed x-request-id in the header and in problems', async () => {
    const id = 'req-0123456789abcdef';
    const ok = await api.call('GET', '/api/coach', { as: admin, headers: { 'x-request-id': id } });
    expect(ok.headers['x-request-id']).toBe(id);
    const problem = await api.call('GET', '/api/coach', { headers: { 'x-request-id': id } });
    expect(problem.headers['x-request-id']).toBe(id);
    expect(problem.body.requestId).toBe(id);
  });

  it('makes up its own id when none or a malformed one is sent', async () => {
    const none = await api.call('GET', '/api/coach', { as: admin });
    expect(String(none.headers['x-request-id'])).toMatch(UUID);
    for (const bad of ['short', 'has spaces in it', `x${'y'.repeat(80)}`]) {
      const res = await api.call('GET', '/api/coach', {
        as: admin,
        headers: { 'x-request-id': bad },
      });
      expect(res.headers['x-request-id']).not.toBe(bad);
      expect(String(res.headers['x-request-id'])).toMatch(UUID);
    }
  });
});

describe('routes outside the contract', () => {
  it('answers an unknown /api route with 404 problem+json', async () => {
    for (const [method, url] of [
      ['GET', '/api/no-such-route'],
      ['POST', '/api/no-such-route'],
      ['GET', '/api/coach/a/b/c'],
    ] as const) {
      const res = await api.call(method, url, { as: admin });
      expectProblem(res, 404, 'route_not_found');
      expect(res.body.instance).toBe(url);
    }
  });

  it('answers a method a path does not have with 405 and the methods it has in Allow', async () => {
    const paths = readContract().paths as Record<string, Record<string, unknown>>;
    const allowOf = (path: string) => {
      const methods = Object.keys(paths[path]!)
        .filter((k) => METHODS.includes(k))
        .map((m) => m.toUpperCase());
      return [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].sort().join(', ');
    };
    for (const [method, url, path] of [
      ['PATCH', '/api/coach', '/coach'],
      ['DELETE', '/api/appointments', '/appointments'],
      ['PUT', '/api/appointments?limit=5', '/appointments'],
      [
        'POST',
        `/api/client/${crypto.randomUUID()}/patient-card`,
        '/client/{clientId}/patient-card',
      ],
      [
        'PATCH',
        `/api/client/initial_appointment/${crypto.randomUUID()}`,
        '/client/initial_appointment/{appointmentId}',
      ],
    ] as const) {
      const res = await api.call(method, url, { as: admin });
      expectProblem(res, 405, 'method_not_allowed');
      expect(res.headers.allow, url).toBe(allowOf(path));
    }
    // Anonymous callers learn the same (the route's existence is in the published contract).
    const anonymous = await api.call('DELETE', '/api/appointments');
    expectProblem(anonymous, 405, 'method_not_allowed');
  });

  it('answers a guarded route without a token with 401 problem+json', async () => {
    const res = await api.call('GET', '/api/appointments');
    expectProblem(res, 401, 'unauthorized');
  });
});

describe('probes for the orchestrator', () => {
  const json = (res: { headers: Record<string, unknown> }) =>
    expect(String(res.headers['content-type'])).toContain('application/json');

  it('answers liveness at /healthz without the database', async () => {
    const res = await api.call('GET', '/healthz');
    expectStatus(res, 200);
    json(res);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers readiness at /readyz when the database answers and is migrated', async () => {
    const res = await api.call('GET', '/readyz');
    expectStatus(res, 200);
    json(res);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is not ready while a committed migration is not applied', async () => {
    const db = api.database.db;
    const deleted = (await db.execute(
      sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = (SELECT max(id) FROM drizzle.__drizzle_migrations) RETURNING hash, created_at`,
    )) as unknown as { rows: Array<{ hash: string; created_at: string }> };
    const [last] = deleted.rows;
    try {
      const res = await api.call('GET', '/readyz');
      expectStatus(res, 503);
      json(res);
      expect(res.body).toEqual({ status: 'unavailable', reason: 'migrations_pending', pending: 1 });
    } finally {
      await db.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${last!.hash}, ${last!.created_at})`,
      );
    }
    expectStatus(await api.call('GET', '/readyz'), 200);
  });

  it('is not ready when the database does not answer within the timeout', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // Another session holds the table the probe reads, as a stuck database would.
    const holder = api.database.db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE drizzle.__drizzle_migrations IN ACCESS EXCLUSIVE MODE`);
      locked();
      await held;
    });
    await isLocked;
    const started = Date.now();
    const res = await api.call('GET', '/readyz');
    release();
    await holder;
    expectStatus(res, 503);
    expect(res.body).toEqual({ status: 'unavailable', reason: 'database_timeout' });
    expect(Date.now() - started).toBeLessThan(READINESS_TIMEOUT_MS + 1_000);
  });

  it('has no /health: it means liveness to some tools and readiness to others', async () => {
    const res = await api.call('GET', '/health');
    expect(res.status).toBe(404);
    expect(String(res.headers['content-type'] ?? '')).not.toContain('text/html');
  });
});

describe('paths that are not the web app', () => {
  it('answers unknown paths under /api and /auth, and missing files, with 404 instead of the app', async () => {
    for (const url of [
      '/api',
      '/api/',
      '/auth',
      '/auth/no-such-thing',
      '/foo.php',
      '/x.js',
      '/assets/none.css',
      '/wp-login.php',
    ]) {
      const res = await api.call('GET', url);
      expect(res.status, url).toBe(404);
      expect(String(res.headers['content-type'] ?? ''), url).not.toContain('text/html');
    }
  });

  it('still serves the app for its own routes', async () => {
    for (const url of ['/', '/appointments/123', '/login']) {
      const res = await api.call('GET', url);
      expectStatus(res, 200);
      expect(String(res.headers['content-type']), url).toContain('text/html');
    }
  });
});
