/**
 * Conformance: the published `@teamhanko/hanko-frontend-sdk` 3.0.0 drives our provider
 * headless (flow protocol §5.4), from a page of the same origin as the provider, as in the
 * default set-up (the app at PUBLIC_URL, the provider under /auth). What the SDK needs in
 * Node (jsdom globals, the ESM build, closing its BroadcastChannel) is described and done in
 * tests/support/hanko-sdk.ts; auth-sdk-cors.test.ts drives it from another origin.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hanko } from '@teamhanko/hanko-frontend-sdk';
import { createAuthTestApp, uniqueEmail, type AuthTestApp } from '../support/auth-client';
import { actionsOf, loadHankoSdk, run, SDK_STATE_OPTIONS as OPTIONS } from '../support/hanko-sdk';

let t: AuthTestApp;
let origin: string;
let browser: Awaited<ReturnType<typeof loadHankoSdk>>;

beforeAll(async () => {
  t = await createAuthTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await loadHankoSdk(`${origin}/`);
});

afterAll(async () => {
  browser?.close();
  await t?.close();
});

const client = (cookieName?: string) => browser.client(`${origin}/auth`, cookieName);

const productLogin = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { authorization: `Bearer ${token}` },
  });

/** Registration through the SDK: e-mail → passcode from the captured mail → password or skip. */
async function register(hanko: Hanko, email: string, password?: string) {
  const init = await hanko.createState('registration', OPTIONS);
  expect(init.name).toBe('registration_init'); // preflight was an auto-step
  const pc = await run(init, 'register_login_identifier', { email });
  expect(pc.name).toBe('passcode_confirmation');
  const pw = await run(pc, 'verify_passcode', { code: await t.lastCode(email) });
  expect(pw.name).toBe('password_creation');
  const done = password
    ? await run(pw, 'register_password', { new_password: password })
    : await run(pw, 'skip');
  return done;
}

describe('the published SDK drives the provider', () => {
  it('registration: the SDK reaches success, keeps the token and the product accepts it', async () => {
    const hanko = client('hanko_registration');
    const created: unknown[] = [];
    hanko.onSessionCreated((detail) => created.push(detail));
    const email = uniqueEmail('sdk-reg');

    const done = await register(hanko, email, 'geheim-1234');
    expect(done.name).toBe('success');
    expect(done.status).toBe(200);
    expect(done.error).toBeUndefined();
    const payload = done.payload as {
      user: { id: string };
      claims: { expiration: string; subject: string };
    };
    expect(payload.user.id).toBe(payload.claims.subject);
    expect(Number.isNaN(Date.parse(payload.claims.expiration))).toBe(false);
    expect(created).toHaveLength(1); // the success auto-step fired hanko-session-created

    const token = hanko.getSessionToken();
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(browser.dom.window.document.cookie).toContain(`hanko_registration=${token}`);
    const login = await productLogin(token);
    expect(login.statusCode).toBe(200);
  });

  it('registration without a password (skip)', async () => {
    const hanko = client();
    const email = uniqueEmail('sdk-skip');
    const done = await register(hanko, email);
    expect(done.name).toBe('success');
    expect((await productLogin(hanko.getSessionToken())).statusCode).toBe(200);
  });

  describe('login', () => {
    const email = uniqueEmail('sdk-login');
    beforeAll(async () => {
      const done = await register(client(), email, 'richtig-1234');
      expect(done.name).toBe('success');
    });

    it('by passcode; a wrong code is the input error the SDK expects', async () => {
      const hanko = client();
      const init = await hanko.createState('login', OPTIONS);
      expect(init.name).toBe('login_init');
      const chooser = await run(init, 'continue_with_login_identifier', { email });
      expect(chooser.name).toBe('login_method_chooser');
      const pc = await run(chooser, 'continue_to_passcode_confirmation');
      expect(pc.name).toBe('passcode_confirmation');
      const right = await t.lastCode(email);

      const wrong = await run(pc, 'verify_passcode', {
        code: right === '000000' ? '111111' : '000000',
      });
      expect(wrong.name).toBe('passcode_confirmation');
      expect(wrong.status).toBe(400);
      expect(wrong.error?.code).toBe('form_data_invalid_error');
      expect(actionsOf(wrong).verify_passcode!.enabled).toBe(true);
      expect(actionsOf(wrong).verify_passcode!.inputs.code!.error).toMatchObject({
        code: 'passcode_invalid',
      });
      await expect(run(pc, 'verify_passcode', { code: right })).rejects.toThrow(
        /already been invoked/,
      );

      const done = await run(wrong, 'verify_passcode', { code: right });
      expect(done.name).toBe('success');
      expect((done.payload as { last_login: unknown }).last_login).toEqual({
        login_method: 'passcode',
      });
      const token = hanko.getSessionToken();
      expect((await productLogin(token)).statusCode).toBe(200);
    });

    it('by password; then getCurrentUser, validateSession and logout', async () => {
      const hanko = client();
      const init = await hanko.createState('login', OPTIONS);
      const chooser = await run(init, 'continue_with_login_identifier', { email });
      const pw = await run(chooser, 'continue_to_password_login');
      expect(pw.name).toBe('login_password');
      const wrong = await run(pw, 'password_login', { password: 'falsch-1234' });
      expect(wrong.name).toBe('login_password');
      expect(actionsOf(wrong).password_login!.inputs.password!.error).toMatchObject({
        code: 'value_invalid_error',
      });
      const done = await run(wrong, 'password_login', { password: 'richtig-1234' });
      expect(done.name).toBe('success');
      const token = hanko.getSessionToken();
      expect((await productLogin(token)).statusCode).toBe(200);

      const me = await hanko.getCurrentUser();
      expect(me.emails?.[0]?.address).toBe(email);
      const session = await hanko.validateSession();
      expect(session).toMatchObject({ is_valid: true, claims: { subject: me.user_id } });

      const loggedOut: unknown[] = [];
      hanko.onUserLoggedOut(() => loggedOut.push(true));
      await hanko.logout();
      expect(loggedOut).toHaveLength(1);
      expect(hanko.getSessionToken()).toBeUndefined();
      expect((await productLogin(token)).statusCode).toBe(401);
      expect(await hanko.validateSession()).toEqual({ is_valid: false });
      await expect(hanko.getCurrentUser()).rejects.toBeInstanceOf(browser.sdk.UnauthorizedError);
    });

    it('a client that still holds a revoked token (sent as Bearer on every request) signs in again', async () => {
      const hanko = client();
      const login = async () => {
        const init = await hanko.createState('login', OPTIONS);
        const pw = await run(
          await run(init, 'continue_with_login_identifier', { email }),
          'continue_to_password_login',
        );
        return run(pw, 'password_login', { password: 'richtig-1234' });
      };
      expect((await login()).name).toBe('success');
      const first = hanko.getSessionToken();
      // Revoked elsewhere (another tab's logout): the SDK does not know and keeps sending it.
      const revoked = await t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { authorization: `Bearer ${first}` },
      });
      expect(revoked.statusCode).toBe(204);
      expect(hanko.getSessionToken()).toBe(first);
      expect((await hanko.validateSession()).is_valid).toBe(false);

      expect((await login()).name).toBe('success');
      const second = hanko.getSessionToken();
      expect(second).not.toBe(first);
      expect((await productLogin(second)).statusCode).toBe(200);
    });
  });

  it('profile: patch_metadata merges into unsafe_metadata, null removes a key, getCurrentUser shows it', async () => {
    const hanko = client('hanko_metadata');
    expect((await register(hanko, uniqueEmail('sdk-meta'))).name).toBe('success');
    const init = await hanko.createState('profile', OPTIONS);
    expect(init.name).toBe('profile_init');
    // The SDK's types declare patch_metadata on profile_init; a disabled stub would say false.
    expect(actionsOf(init).patch_metadata!.enabled).toBe(true);
    const first = await run(init, 'patch_metadata', {
      patch_metadata: { theme: 'dark', notes: { a: 1, b: 2 } },
    });
    expect(first.name).toBe('profile_init');
    expect(first.status).toBe(200);
    const second = await run(first, 'patch_metadata', {
      patch_metadata: { notes: { a: null }, lang: 'de' },
    });
    const expected = { theme: 'dark', notes: { b: 2 }, lang: 'de' };
    expect((second.payload as { user: { metadata: unknown } }).user.metadata).toEqual({
      unsafe_metadata: expected,
    });
    expect((await hanko.getCurrentUser()).metadata).toEqual({ unsafe_metadata: expected });

    const tooBig = await run(second, 'patch_metadata', {
      patch_metadata: { big: 'x'.repeat(3000) },
    });
    expect(tooBig.status).toBe(400);
    expect(actionsOf(tooBig).patch_metadata!.inputs.patch_metadata!.error).toMatchObject({
      code: 'invalid_metadata_error',
    });
    expect((await hanko.getCurrentUser()).metadata).toEqual({ unsafe_metadata: expected });
  });
});
