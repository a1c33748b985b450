/**
 * Everyday sign-in: a declined passkey offer is not repeated at every sign-in
 * (AUTH_PASSKEY_ONBOARDING_SNOOZE_DAYS), and after the address only the methods the account
 * has are offered (AUTH_ONLY_SHOW_ACTUAL_LOGIN_METHODS, on by default).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authUsers } from '../../server/db/schema/index';
import {
  createAuthTestApp,
  uniqueEmail,
  type AuthTestApp,
  type FlowState,
} from '../support/auth-client';

const WEBAUTHN = {
  webauthn_available: true,
  webauthn_conditional_mediation_available: false,
  webauthn_platform_authenticator_available: true,
};
const DAY = 86_400_000;
const LOOSE = { points: 1000, durationSeconds: 60 };

/** A clock the test moves; the provider's flows read it as ctx.now. */
function clock() {
  let at = Date.now();
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

async function app(env: Record<string, string> = {}) {
  const time = clock();
  const t = await createAuthTestApp({
    env,
    now: time.now,
    rateLimits: { passcodeSend: LOOSE, passcodeSendCaller: LOOSE, passcodeSendAddress: LOOSE },
  });
  return { t, time };
}

/** A browser that can create passkeys (so the offer applies). */
async function beginWithPasskeys(t: AuthTestApp, flow: 'login' | 'registration') {
  const first = await t.start(flow);
  return t.act(first, 'register_client_capabilities', WEBAUTHN);
}

/** Sign-in of a password-less account by code; returns the state after the code. */
async function signIn(t: AuthTestApp, email: string): Promise<FlowState> {
  const init = await beginWithPasskeys(t, 'login');
  const pc = await t.act(init, 'continue_with_login_identifier', { email });
  expect(pc.name).toBe('passcode_confirmation');
  return t.act(pc, 'verify_passcode', { code: await t.lastCode(email) });
}

async function declinedAt(t: AuthTestApp, userId: string) {
  const [row] = await t.database.db
    .select({ at: authUsers.passkeyDeclinedAt })
    .from(authUsers)
    .where(eq(authUsers.id, userId));
  return row?.at ?? null;
}

/** Registered without a passkey-capable browser: never asked, nothing declined yet. */
async function account(t: AuthTestApp, password?: string) {
  const email = uniqueEmail('everyday');
  const done = await t.register(email, password);
  return { email, userId: String(done.payload!.user.id) };
}

describe('a declined passkey offer (default snooze: 90 days)', () => {
  let t: AuthTestApp;
  let time: ReturnType<typeof clock>;
  beforeAll(async () => ({ t, time } = await app()));
  afterAll(() => t?.close());

  it('is not asked again at the next sign-ins, and again after 90 days', async () => {
    const { email, userId } = await account(t);
    expect(await declinedAt(t, userId)).toBeNull();
    const offer = await signIn(t, email);
    expect(offer.name).toBe('onboarding_create_passkey');
    const declinedOn = time.now().toISOString();
    expect((await t.act(offer, 'skip')).name).toBe('success');
    expect(await declinedAt(t, userId)).toBe(declinedOn);

    expect((await signIn(t, email)).name).toBe('success');
    time.advance(90 * DAY - 60_000);
    expect((await signIn(t, email)).name).toBe('success');
    time.advance(120_000);
    const again = await signIn(t, email);
    expect(again.name).toBe('onboarding_create_passkey');
    // Declined once more: the next 90 days start now.
    expect((await t.act(again, 'skip')).name).toBe('success');
    expect(await declinedAt(t, userId)).toBe(time.now().toISOString());
    expect((await signIn(t, email)).name).toBe('success');
  });

  it('skipping the offer at registration counts as a decline', async () => {
    const email = uniqueEmail('registered');
    const init = await beginWithPasskeys(t, 'registration');
    const pc = await t.act(init, 'register_login_identifier', { email });
    const offer = await t.act(pc, 'verify_passcode', { code: await t.lastCode(email) });
    expect(offer.name).toBe('onboarding_create_passkey');
    const pw = await t.act(offer, 'skip');
    expect(pw.name).toBe('password_creation');
    const done = await t.act(pw, 'skip');
    expect(done.name).toBe('success');
    expect(await declinedAt(t, String(done.payload!.user.id))).toBe(time.now().toISOString());
    expect((await signIn(t, email)).name).toBe('success');
  });

  it('leaves creating a passkey in the profile possible', async () => {
    const { email } = await account(t);
    const offer = await signIn(t, email);
    const done = await t.act(offer, 'skip');
    const token = String(done.headers['x-auth-token']);
    const bearer = { authorization: `Bearer ${token}` };
    const first = await t.post('/profile', undefined, bearer);
    const init = await t.post(
      first.actions.register_client_capabilities!.href,
      { input_data: WEBAUTHN, csrf_token: first.csrf_token },
      bearer,
    );
    expect(init.name).toBe('profile_init');
    expect(init.actions.webauthn_credential_create).toBeDefined();
  });
});

describe('AUTH_PASSKEY_ONBOARDING_SNOOZE_DAYS=0', () => {
  let t: AuthTestApp;
  let time: ReturnType<typeof clock>;
  beforeAll(async () => ({ t, time } = await app({ AUTH_PASSKEY_ONBOARDING_SNOOZE_DAYS: '0' })));
  afterAll(() => t?.close());

  it('never asks again after a decline', async () => {
    const { email } = await account(t);
    const offer = await signIn(t, email);
    expect(offer.name).toBe('onboarding_create_passkey');
    await t.act(offer, 'skip');
    time.advance(3650 * DAY);
    expect((await signIn(t, email)).name).toBe('success');
  });
});

describe('required passkeys (AUTH_PASSKEY_OPTIONAL=false)', () => {
  let t: AuthTestApp;
  beforeAll(async () => ({ t } = await app({ AUTH_PASSKEY_OPTIONAL: 'false' })));
  afterAll(() => t?.close());

  it('are asked for at every sign-in, an earlier decline notwithstanding', async () => {
    const { email, userId } = await account(t);
    // Declined while passkeys were optional.
    await t.database.db
      .update(authUsers)
      .set({ passkeyDeclinedAt: new Date().toISOString() })
      .where(eq(authUsers.id, userId));
    const offer = await signIn(t, email);
    expect(offer.name).toBe('onboarding_create_passkey');
    expect(offer.actions.skip).toBeUndefined();
  });
});

describe('only the methods an account has (default)', () => {
  let t: AuthTestApp;
  beforeAll(async () => ({ t } = await app()));
  afterAll(() => t?.close());

  const identify = async (email: string) =>
    t.act(await t.begin('login'), 'continue_with_login_identifier', { email });

  it('offers the chooser to an account with a password', async () => {
    const { email } = await account(t, 'richtig-123');
    const chooser = await identify(email);
    expect(chooser.name).toBe('login_method_chooser');
    expect(Object.keys(chooser.actions).sort()).toEqual([
      'back',
      'continue_to_passcode_confirmation',
      'continue_to_password_login',
    ]);
    expect(await t.mails(email)).toHaveLength(1); // only the registration's code
  });

  it('sends an account without a password and an unknown address alike straight to the code', async () => {
    const { email } = await account(t);
    const stranger = uniqueEmail('stranger');
    const known = await identify(email);
    const unknown = await identify(stranger);
    for (const state of [known, unknown]) {
      expect(state).toMatchObject({ name: 'passcode_confirmation', status: 200 });
    }
    expect(Object.keys(unknown.actions).sort()).toEqual(Object.keys(known.actions).sort());
    expect(known.actions.continue_to_password_login).toBeUndefined();
    expect((await t.mails(email))[0]!.template).toBe('auth_login');
    // The unknown address's owner learns that someone tried; no code leads anywhere.
    expect((await t.mails(stranger)).map((m) => m.template)).toEqual([
      'auth_email_login_attempted',
    ]);
    const done = await t.act(known, 'verify_passcode', { code: await t.lastCode(email) });
    expect(done.name).toBe('success');
  });
});

describe('AUTH_ONLY_SHOW_ACTUAL_LOGIN_METHODS=false', () => {
  let t: AuthTestApp;
  beforeAll(async () => ({ t } = await app({ AUTH_ONLY_SHOW_ACTUAL_LOGIN_METHODS: 'false' })));
  afterAll(() => t?.close());

  it('offers the chooser (with the password) to every address', async () => {
    const { email } = await account(t);
    for (const address of [email, uniqueEmail('stranger')]) {
      const chooser = await t.act(await t.begin('login'), 'continue_with_login_identifier', {
        email: address,
      });
      expect(chooser.name).toBe('login_method_chooser');
      expect(chooser.actions.continue_to_password_login).toBeDefined();
    }
  });
});
