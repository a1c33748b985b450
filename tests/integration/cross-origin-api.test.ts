import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../../server/testing/test-app';

// A web app built with VITE_API_BASE_URL and served from another origin calls the product API
// across origins: the server lets exactly the configured origins read its answers.

const WEB = 'https://app.example.org';
const template = () => (process.env.DATABASE_URL ? { template: inject('templateDatabase') } : {});
let crossOrigin: TestApp;
let sameOrigin: TestApp;
let bearer: string;

beforeAll(async () => {
  crossOrigin = await createTestApp({
    ...template(),
    env: {
      API_ALLOWED_ORIGINS: `${WEB}/, https://other.example.org`,
      VITE_API_BASE_URL: 'https://api.example.org/api',
      VITE_AUTH_BASE_URL: 'https://login.example.org/auth',
    },
  });
  sameOrigin = await createTestApp(template());
  bearer = (await crossOrigin.signIn('ADMIN')).authorization;
}, 120_000);
afterAll(async () => {
  await crossOrigin?.close();
  await sameOrigin?.close();
});

const preflight = (app: TestApp, origin: string, url = '/api/admin/client') =>
  app.app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, idempotency-key',
    },
  });

describe('the product API across origins', () => {
  it('answers an allowed origin with its own origin, the headers the app reads, and no credentials', async () => {
    const res = await crossOrigin.app.inject({
      method: 'GET',
      url: '/api/admin/client?limit=1',
      headers: { origin: WEB, authorization: bearer },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(WEB);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/ETag/);
    expect(String(res.headers['vary'])).toMatch(/Origin/i);
  });

  it('gives an unknown origin no CORS headers, so its browser refuses the answer', async () => {
    const res = await crossOrigin.app.inject({
      method: 'GET',
      url: '/api/admin/client?limit=1',
      headers: { origin: 'https://evil.example.net', authorization: bearer },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await preflight(crossOrigin, 'https://evil.example.net');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('answers the preflight of a write with token, JSON body and Idempotency-Key', async () => {
    for (const url of ['/api/admin/client', '/api/appointment', '/api/no-such-route']) {
      const res = await preflight(crossOrigin, 'https://other.example.org', url);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('https://other.example.org');
      expect(String(res.headers['access-control-allow-methods'])).toMatch(/\bPOST\b/);
      const headers = String(res.headers['access-control-allow-headers']).toLowerCase();
      for (const h of ['authorization', 'content-type', 'idempotency-key', 'if-match']) {
        expect(headers).toContain(h);
      }
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
    }
  });

  it('lets the delivered web app connect to the configured API and sign-in hosts (CSP)', async () => {
    const csp = String(
      (await crossOrigin.app.inject({ method: 'GET', url: '/healthz' })).headers[
        'content-security-policy'
      ],
    );
    expect(csp).toMatch(
      /connect-src 'self' https:\/\/api\.example\.org https:\/\/login\.example\.org(;|$)/,
    );
  });

  it('stays same-origin only without the setting', async () => {
    const res = await sameOrigin.app.inject({
      method: 'GET',
      url: '/api/admin/client?limit=1',
      headers: { origin: WEB },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await preflight(sameOrigin, WEB);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.statusCode).not.toBe(204);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
  });
});
