/**
 * The published SDK against the provider in cookie mode (`AUTH_SESSION_TOKEN_HEADER=false`):
 * no `X-Auth-Token`, the session is an HttpOnly cookie that the page cannot read and the
 * browser (jsdom's cookie jar) sends along (protocol §1.5, checklist §5.3 item 6). The SDK
 * set-up is described in tests/support/hanko-sdk.ts.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthTestApp, uniqueEmail, type AuthTestApp } from '../support/auth-client';
import { loadHankoSdk, run, SDK_STATE_OPTIONS as OPTIONS } from '../support/hanko-sdk';

let t: AuthTestApp;
let origin: string;
let browser: Awaited<ReturnType<typeof loadHankoSdk>>;

beforeAll(async () => {
  t = await createAuthTestApp({ env: { AUTH_SESSION_TOKEN_HEADER: 'false' } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await loadHankoSdk(`${origin}/`);
});

afterAll(async () => {
  browser?.close();
  await t?.close();
});

describe('the SDK with the session in an HttpOnly cookie', () => {
  it('registers; the cookie carries /me and /sessions/validate; logout ends the session', async () => {
    // The SDK's own cookie name is the server's, as in a real set-up.
    const hanko = browser.client(`${origin}/auth`, t.authProvider!.auth.AUTH_COOKIE_NAME);
    const email = uniqueEmail('sdk-cookie');
    const init = await hanko.createState('registration', OPTIONS);
    const pc = await run(init, 'register_login_identifier', { email });
    const pw = await run(pc, 'verify_passcode', { code: await t.lastCode(email) });
    const done = await run(pw, 'register_password', { new_password: 'geheim-1234' });
    expect(done.name).toBe('success');

    expect(hanko.getSessionToken()).toBeUndefined(); // HttpOnly: invisible to the page
    const me = await hanko.getCurrentUser();
    expect(me.emails?.[0]?.address).toBe(email);
    const session = await hanko.validateSession();
    expect(session).toMatchObject({ is_valid: true, claims: { subject: me.user_id } });

    await hanko.logout();
    expect(await hanko.validateSession()).toEqual({ is_valid: false });
    await expect(hanko.getCurrentUser()).rejects.toBeInstanceOf(browser.sdk.UnauthorizedError);
  });
});
