/**
 * The published SDK from a page of **another origin** than the provider (the provider run
 * alone with `npm run start:auth`, or a widget on another host): jsdom's XMLHttpRequest then
 * behaves like a browser: preflight for the JSON POST, credentials only with
 * `Access-Control-Allow-Credentials`, and `X-Auth-Token` readable only when exposed. The
 * SDK set-up is described in tests/support/hanko-sdk.ts.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFlows } from '../../server/db/schema/index';
import { createAuthTestApp, uniqueEmail, type AuthTestApp } from '../support/auth-client';
import { loadHankoSdk, run, SDK_STATE_OPTIONS as OPTIONS } from '../support/hanko-sdk';

const PAGE = 'http://widget.example.test';
let t: AuthTestApp;
let api: string;
let browser: Awaited<ReturnType<typeof loadHankoSdk>>;

beforeAll(async () => {
  t = await createAuthTestApp({
    env: { AUTH_ALLOWED_ORIGINS: `https://other.example.test, ${PAGE}` },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/auth`;
  browser = await loadHankoSdk(`${PAGE}/anmelden`);
});

afterAll(async () => {
  browser?.close();
  await t?.close();
});

describe('the SDK from an allowed other origin', () => {
  it('registers, reads the exposed X-Auth-Token, and uses it for /me, /sessions/validate and logout', async () => {
    const hanko = browser.client(api);
    const email = uniqueEmail('sdk-cors');
    const init = await hanko.createState('registration', OPTIONS);
    expect(init.name).toBe('registration_init');
    const pc = await run(init, 'register_login_identifier', { email });
    const pw = await run(pc, 'verify_passcode', { code: await t.lastCode(email) });
    const done = await run(pw, 'skip');
    expect(done.name).toBe('success');

    const token = hanko.getSessionToken();
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const product = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(product.statusCode).toBe(200);
    expect((await hanko.getCurrentUser()).emails?.[0]?.address).toBe(email);
    expect((await hanko.validateSession()).is_valid).toBe(true);
    await hanko.logout();
    expect(hanko.getSessionToken()).toBeUndefined();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('the SDK from an origin that is not allowed', () => {
  it('gets no answer it may read, so no flow starts', async () => {
    browser.close();
    browser = await loadHankoSdk('http://elsewhere.example.test/');
    const hanko = browser.client(api);
    // The preflight lacks Access-Control-Allow-Origin; jsdom reports a network error, and
    // SDK 3.0.0 turns that into a state with `actions: null`, whose constructor throws.
    const before = await t.database.db.$count(authFlows);
    await expect(hanko.createState('login', OPTIONS)).rejects.toThrow(/null/);
    expect(await t.database.db.$count(authFlows)).toBe(before); // the POST was never sent
  });
});
