/**
 * Third-party sign-in (flow protocol §1.1, §3.6 `thirdparty`) against a fake OpenID Connect
 * provider on 127.0.0.1: thirdparty_oauth → the provider's authorisation URL → the callback
 * → back to the app with ?hanko_token=… → exchange_token → success.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthTestApp,
  uniqueEmail,
  type AuthTestApp,
  type FlowState,
} from '../support/auth-client';
import { startFakeOidc, type FakeOidc } from '../support/fake-oidc';

let fake: FakeOidc;
let t: AuthTestApp;
const APP = 'http://localhost:3000';

beforeAll(async () => {
  fake = await startFakeOidc();
  t = await createAuthTestApp({
    env: { PUBLIC_URL: APP, AUTH_THIRDPARTY_PROVIDERS: JSON.stringify([fake.config()]) },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const cookieOf = (state: FlowState) =>
  [state.headers['set-cookie'] ?? []]
    .flat()
    .map(String)
    .find((c) => c.startsWith('hanko_thirdparty_state='));

/** The browser's trip: provider authorisation, then our callback; returns where it lands. */
async function roundTrip(start: FlowState, options: { cookie?: string | null } = {}) {
  const cookie = options.cookie === undefined ? cookieOf(start)!.split(';')[0]! : options.cookie;
  const atProvider = await fetch(String(start.payload!.redirect_url), { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get('location')!);
  expect(`${callback.origin}${callback.pathname}`).toBe(`${APP}/auth/thirdparty/callback`);
  const res = await t.app.inject({
    method: 'GET',
    url: `/auth/thirdparty/callback${callback.search}`,
    headers: cookie ? { cookie } : {},
  });
  expect(res.statusCode).toBe(303);
  expect(String(res.headers['set-cookie'])).toContain('hanko_thirdparty_state=;');
  return new URL(String(res.headers.location));
}

async function toProvider(flow: 'login' | 'registration', redirectTo = `${APP}/login`) {
  const init = await t.begin(flow);
  return t.act(init, 'thirdparty_oauth', { provider: 'fakeid', redirect_to: redirectTo });
}

describe('third-party sign-in', () => {
  it('offers the configured providers on login_init and registration_init', async () => {
    for (const flow of ['login', 'registration'] as const) {
      const init = await t.begin(flow);
      const action = init.actions.thirdparty_oauth!;
      expect(action.inputs.provider).toMatchObject({
        required: true,
        hidden: true,
        allowed_values: [{ value: 'fakeid', name: 'FakeID' }],
      });
      expect(action.inputs.redirect_to).toMatchObject({ required: true, hidden: true });
    }
  });

  it('signs up a new person with the address the provider verified, and signs them in again', async () => {
    const email = uniqueEmail('oidc');
    fake.nextAccount = { sub: `sub-${email}`, email, email_verified: true };
    const thirdparty = await toProvider('login');
    expect(thirdparty.name).toBe('thirdparty');
    const authorize = new URL(String(thirdparty.payload!.redirect_url));
    expect(authorize.origin).toBe(fake.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('client_id')).toBe(fake.clientId);
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(cookieOf(thirdparty)).toMatch(/HttpOnly/);

    const landed = await roundTrip(thirdparty);
    expect(`${landed.origin}${landed.pathname}`).toBe(`${APP}/login`);
    const token = landed.searchParams.get('hanko_token');
    expect(token).toBeTruthy();

    // The SDK restores the cached state, with its old CSRF token, and exchanges the token.
    const done = await t.act(thirdparty, 'exchange_token', { token });
    expect(done.name).toBe('success');
    expect(done.headers['x-auth-token']).toBeTruthy();
    expect(done.payload!.last_login).toEqual({
      login_method: 'third_party',
      third_party_provider: 'fakeid',
    });
    expect(done.payload!.user.emails[0]).toMatchObject({
      address: email,
      is_verified: true,
      is_primary: true,
      // The profile shows where the address came from.
      identities: [
        {
          id: `sub-${email}`,
          provider: 'fakeid',
          provider_name: 'FakeID',
          identity_id: expect.any(String),
        },
      ],
    });
    const userId = done.payload!.claims.subject;
    expect(fake.refused).toEqual([]);

    // Again: the linked account, same user.
    const again = await toProvider('login');
    const token2 = (await roundTrip(again)).searchParams.get('hanko_token');
    const done2 = await t.act(again, 'exchange_token', { token: token2 });
    expect(done2.name).toBe('success');
    expect(done2.payload!.claims.subject).toBe(userId);

    // A token works once, and only in its own flow.
    const other = await toProvider('login');
    const replay = await t.act(other, 'exchange_token', { token: token2 });
    expect(replay.status).toBe(500);
    expect(replay.error?.code).toBe('technical_error');
  });

  it('links to the existing account with that confirmed address (registration flow too)', async () => {
    const email = uniqueEmail('linked');
    const registered = await t.register(email, 'ein-passwort-123');
    const userId = registered.payload!.claims.subject;
    fake.nextAccount = { sub: `other-${email}`, email, email_verified: true };
    const thirdparty = await toProvider('registration');
    const token = (await roundTrip(thirdparty)).searchParams.get('hanko_token');
    const done = await t.act(thirdparty, 'exchange_token', { token });
    expect(done.name).toBe('success');
    expect(done.payload!.claims.subject).toBe(userId);
    // Signed up with a code, then linked: the address names the provider now; an address
    // of a password or code sign-up alone names none.
    expect(registered.payload!.user.emails[0].identities).toBeUndefined();
    expect(done.payload!.user.emails[0].identities).toEqual([
      {
        id: `other-${email}`,
        provider: 'fakeid',
        provider_name: 'FakeID',
        identity_id: expect.any(String),
      },
    ]);
    expect(done.payload!.user.identities).toEqual(done.payload!.user.emails[0].identities);
  });

  it('refuses an address the provider did not verify, and links nothing', async () => {
    const email = uniqueEmail('unverified');
    fake.nextAccount = { sub: `unverified-${email}`, email, email_verified: false };
    const thirdparty = await toProvider('login');
    const token = (await roundTrip(thirdparty)).searchParams.get('hanko_token');
    const refused = await t.act(thirdparty, 'exchange_token', { token });
    expect(refused.status).toBe(403);
    expect(refused.name).toBe('thirdparty');
    expect(refused.error?.code).toBe('third_party_unverified_email');
    const login = await t.begin('login');
    const next = await t.act(login, 'continue_with_login_identifier', { email });
    // Unknown address (no account was created): the code step, whose mail says so.
    expect(next.name).toBe('passcode_confirmation');
    expect((await t.mails(email)).map((m) => m.template)).toEqual(['auth_email_login_attempted']);
  });

  it('redirects back with error=access_denied when the person says no', async () => {
    fake.deny = true;
    const thirdparty = await toProvider('login');
    const landed = await roundTrip(thirdparty);
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('hanko_token')).toBeNull();
  });

  it('refuses a callback from another browser (no state cookie) and a forged state', async () => {
    const thirdparty = await toProvider('login');
    const landed = await roundTrip(thirdparty, { cookie: null });
    expect(landed.searchParams.get('error')).toBe('invalid_request');
    expect(landed.searchParams.get('hanko_token')).toBeNull();

    const forged = await t.app.inject({
      method: 'GET',
      url: '/auth/thirdparty/callback?code=x&state=v1.AAAA',
    });
    expect(forged.statusCode).toBe(303);
    const location = new URL(String(forged.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(`${APP}/login`);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a redirect_to outside the allow-list and an unknown provider (400 at the field)', async () => {
    const init = await t.begin('login');
    const bad = await t.act(init, 'thirdparty_oauth', {
      provider: 'fakeid',
      redirect_to: 'https://evil.example/',
    });
    expect(bad.status).toBe(400);
    expect(bad.name).toBe('login_init');
    expect(bad.actions.thirdparty_oauth!.inputs.redirect_to!.error?.code).toBe(
      'value_invalid_error',
    );
    const unknown = await t.act(bad, 'thirdparty_oauth', {
      provider: 'nope',
      redirect_to: `${APP}/login`,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.actions.thirdparty_oauth!.inputs.provider!.error?.code).toBe(
      'value_invalid_error',
    );
  });

  it('checks the PKCE code_verifier the SDK sent with thirdparty_oauth', async () => {
    const email = uniqueEmail('pkce');
    fake.nextAccount = { sub: `pkce-${email}`, email, email_verified: true };
    const init = await t.begin('login');
    const thirdparty = await t.act(init, 'thirdparty_oauth', {
      provider: 'fakeid',
      redirect_to: `${APP}/login`,
      code_verifier: 'v'.repeat(43),
    });
    const token = (await roundTrip(thirdparty)).searchParams.get('hanko_token');
    const wrong = await t.act(thirdparty, 'exchange_token', {
      token,
      code_verifier: 'w'.repeat(43),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.actions.exchange_token!.inputs.code_verifier!.error?.code).toBe(
      'value_invalid_error',
    );
    const right = await t.act(wrong, 'exchange_token', { token, code_verifier: 'v'.repeat(43) });
    expect(right.name).toBe('success');
  });
});
