import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../../server/testing/test-app';

// Strict-Transport-Security pins a browser to HTTPS for a year: sent only on answers that went
// over HTTPS, which behind a TLS-terminating proxy the believed X-Forwarded-Proto tells
//. On a plain-http host (development, an intranet test) it is left out.

const template = () => (process.env.DATABASE_URL ? { template: inject('templateDatabase') } : {});
let direct: TestApp;
let proxied: TestApp;

beforeAll(async () => {
  direct = await createTestApp(template());
  proxied = await createTestApp({ ...template(), env: { TRUST_PROXY: 'true' } });
}, 120_000);
afterAll(async () => {
  await direct?.close();
  await proxied?.close();
});

const hstsOf = async (api: TestApp, url: string, headers: Record<string, string> = {}) =>
  (await api.app.inject({ method: 'GET', url, headers })).headers['strict-transport-security'];

describe('HSTS', () => {
  it('is not sent over plain HTTP', async () => {
    for (const url of ['/healthz', '/api/openapi.json', '/api/no-such-route']) {
      expect(await hstsOf(direct, url)).toBeUndefined();
      expect(await hstsOf(proxied, url)).toBeUndefined();
      expect(await hstsOf(proxied, url, { 'x-forwarded-proto': 'http' })).toBeUndefined();
    }
  });

  it('is sent when a believed proxy says the request came over HTTPS', async () => {
    for (const url of ['/healthz', '/api/openapi.json', '/api/no-such-route']) {
      expect(await hstsOf(proxied, url, { 'x-forwarded-proto': 'https' })).toBe(
        'max-age=31536000; includeSubDomains',
      );
    }
  });

  it('ignores X-Forwarded-Proto from a caller no proxy setting believes', async () => {
    expect(await hstsOf(direct, '/healthz', { 'x-forwarded-proto': 'https' })).toBeUndefined();
  });
});
