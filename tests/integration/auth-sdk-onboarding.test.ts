/**
 * Conformance, continued (auth-sdk.test.ts has the default set-up): the published
 * `@teamhanko/hanko-frontend-sdk` 3.0.0 drives the provider configured for registration by
 * username with the e-mail optional and asked for in onboarding (`onboarding_email`,
 * `email_address_set`), and with "Angemeldet bleiben" offered (`remember_me`). Its own
 * provider, because the login screen then asks for an identifier instead of an address.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hanko } from '@teamhanko/hanko-frontend-sdk';
import { createAuthTestApp, uniqueEmail, type AuthTestApp } from '../support/auth-client';
import { actionsOf, loadHankoSdk, run, SDK_STATE_OPTIONS as OPTIONS } from '../support/hanko-sdk';

const LIFETIME = 7200;
let t: AuthTestApp;
let origin: string;
let browser: Awaited<ReturnType<typeof loadHankoSdk>>;

beforeAll(async () => {
  t = await createAuthTestApp({
    env: {
      AUTH_USERNAME: 'optional',
      AUTH_EMAIL_OPTIONAL: 'true',
      AUTH_SESSION_RETENTION: 'prompt',
      AUTH_SESSION_LIFETIME_SECONDS: String(LIFETIME),
    },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await loadHankoSdk(`${origin}/`);
});

afterAll(async () => {
  browser?.close();
  await t?.close();
});

let count = 0;
const cookieNames = new WeakMap<Hanko, string>();
function client() {
  const name = `hanko_onboarding_${++count}`;
  const hanko = browser.client(`${origin}/auth`, name);
  cookieNames.set(hanko, name);
  return hanko;
}
const uniqueUsername = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;

/** The SDK's token cookie as the browser keeps it: its expiry, or 'Infinity' (session cookie). */
function tokenCookieExpiry(hanko: Hanko) {
  const name = cookieNames.get(hanko);
  // jsdom's cookie jar (tough-cookie), which its types do not declare on the instance.
  const jar = (
    browser.dom as unknown as {
      cookieJar: { getCookiesSync(url: string): { key: string; expires: Date | 'Infinity' }[] };
    }
  ).cookieJar;
  const cookie = jar.getCookiesSync(origin).find((c) => c.key === name);
  if (!cookie) throw new Error(`no ${name} cookie`);
  return cookie.expires;
}

/** Registration by username and password; the address given in onboarding, or skipped. */
async function registerByUsername(hanko: Hanko, username: string, email: string | null) {
  const init = await hanko.createState('registration', OPTIONS);
  expect(init.name).toBe('registration_init');
  const identifier = actionsOf(init).register_login_identifier!;
  // Offered together, e-mail and username are both optional.
  expect(identifier.inputs.email).toMatchObject({ required: false });
  expect(identifier.inputs.username).toMatchObject({ required: false });
  expect(actionsOf(init).remember_me!.enabled).toBe(true);

  const onboarding = await run(init, 'register_login_identifier', { username });
  expect(onboarding.name).toBe('onboarding_email');
  expect(actionsOf(onboarding).email_address_set!.enabled).toBe(true);
  let pw;
  if (email) {
    const pc = await run(onboarding, 'email_address_set', { email });
    expect(pc.name).toBe('passcode_confirmation');
    pw = await run(pc, 'verify_passcode', { code: await t.lastCode(email) });
  } else {
    pw = await run(onboarding, 'skip');
  }
  expect(pw.name).toBe('password_creation');
  return run(pw, 'register_password', { new_password: 'geheim-1234' });
}

describe('the published SDK drives onboarding_email and remember_me', () => {
  it('registration by username: the address asked for in onboarding is verified by code and stored', async () => {
    const hanko = client();
    const username = uniqueUsername('reg');
    const email = uniqueEmail('sdk-onboarding');
    const done = await registerByUsername(hanko, username, email);
    expect(done.name).toBe('success');

    const me = await hanko.getCurrentUser();
    expect(me.username?.username).toBe(username);
    expect(me.emails).toEqual([
      expect.objectContaining({ address: email, is_primary: true, is_verified: true }),
    ]);
    // "Angemeldet bleiben" not checked: the token lasts until the browser closes.
    expect(tokenCookieExpiry(hanko)).toBe('Infinity');
  });

  it('a sign-in by username of an account without an address asks for one; remember_me keeps the session for its lifetime', async () => {
    const username = uniqueUsername('login');
    expect((await registerByUsername(client(), username, null)).name).toBe('success');

    const hanko = client();
    const init = await hanko.createState('login', OPTIONS);
    expect(init.name).toBe('login_init');
    const remembered = await run(init, 'remember_me', { remember_me: true });
    expect(remembered.name).toBe('login_init');
    expect(remembered.status).toBe(200);
    const pw = await run(remembered, 'continue_with_login_identifier', { identifier: username });
    expect(pw.name).toBe('login_password');
    const onboarding = await run(pw, 'password_login', { password: 'geheim-1234' });
    expect(onboarding.name).toBe('onboarding_email');
    expect(actionsOf(onboarding).skip!.enabled).toBe(true);

    const invalid = await run(onboarding, 'email_address_set', { email: 'keine-adresse' });
    expect(invalid.name).toBe('onboarding_email');
    expect(actionsOf(invalid).email_address_set!.inputs.email!.error).toMatchObject({
      code: 'value_invalid_error',
    });
    const email = uniqueEmail('sdk-onboarding-login');
    const pc = await run(invalid, 'email_address_set', { email });
    expect(pc.name).toBe('passcode_confirmation');
    const done = await run(pc, 'verify_passcode', { code: await t.lastCode(email) });
    expect(done.name).toBe('success');
    expect((done.payload as { claims: { email?: unknown } }).claims.email).toMatchObject({
      address: email,
      is_verified: true,
    });

    const me = await hanko.getCurrentUser();
    expect(me.emails?.map((e) => e.address)).toEqual([email]);
    const expires = tokenCookieExpiry(hanko);
    expect(expires).toBeInstanceOf(Date);
    const seconds = ((expires as Date).getTime() - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(LIFETIME - 120);
    expect(seconds).toBeLessThanOrEqual(LIFETIME + 1);
  });
});
