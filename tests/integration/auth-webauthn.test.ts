/**
 * Passkeys and security keys (flow protocol §3.2, §3.6) with a software authenticator that
 * produces real attestations and assertions (tests/support/soft-authenticator.ts): the
 * provider checks them with @simplewebauthn/server against the relying party of
 * PUBLIC_URL (localhost, http://localhost:3000 in tests).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authWebauthnCredentials } from '../../server/db/schema/index';
import {
  createAuthTestApp,
  uniqueEmail,
  type AuthTestApp,
  type FlowState,
} from '../support/auth-client';
import { SoftAuthenticator } from '../support/soft-authenticator';

let t: AuthTestApp;
beforeAll(async () => {
  t = await createAuthTestApp({
    rateLimits: { passcodeAttempt: { points: 1000, durationSeconds: 60 } },
  });
});
afterAll(() => t.close());

const ORIGIN = 'http://localhost:3000';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const WEBAUTHN = {
  webauthn_available: true,
  webauthn_conditional_mediation_available: true,
  webauthn_platform_authenticator_available: true,
};

/** Starts a flow as a browser with WebAuthn and passkey autofill. */
async function begin(flow: 'login' | 'registration', caps: Record<string, boolean> = WEBAUTHN) {
  const first = await t.start(flow);
  return t.act(first, 'register_client_capabilities', caps);
}

function act(state: FlowState, token: string, name: string, input: Record<string, unknown> = {}) {
  const action = state.actions[name];
  if (!action)
    throw new Error(
      `${state.name} offers no ${name} (has ${Object.keys(state.actions).join(', ')})`,
    );
  return t.post(action.href, { input_data: input, csrf_token: state.csrf_token }, bearer(token));
}

async function profile(token: string) {
  const first = await t.post('/profile', undefined, bearer(token));
  const init = await act(first, token, 'register_client_capabilities', WEBAUTHN);
  expect(init.name).toBe('profile_init');
  return init;
}

/** Registration: e-mail → code → passkey → (skip password) → success. */
async function registerWithPasskey(
  authenticator: SoftAuthenticator,
  email = uniqueEmail('passkey'),
) {
  const init = await begin('registration');
  const pc = await t.act(init, 'register_login_identifier', { email });
  const onboarding = await t.act(pc, 'verify_passcode', { code: await t.lastCode(email) });
  expect(onboarding.name).toBe('onboarding_create_passkey');
  expect(Object.keys(onboarding.actions).sort()).toEqual([
    'skip',
    'webauthn_generate_creation_options',
  ]);
  const verify = await t.act(onboarding, 'webauthn_generate_creation_options');
  expect(verify.name).toBe('onboarding_verify_passkey_attestation');
  const options = verify.payload!.creation_options;
  expect(options.publicKey).toMatchObject({
    rp: { id: 'localhost', name: 'Sprechstunde' },
    user: { name: email },
    authenticatorSelection: { residentKey: 'required' },
  });
  const pw = await t.act(verify, 'webauthn_verify_attestation_response', {
    public_key: authenticator.create(options),
  });
  expect(pw.name).toBe('password_creation');
  const done = await t.act(pw, 'skip');
  expect(done.name).toBe('success');
  return { email, done, token: String(done.headers['x-auth-token']) };
}

const credentialRows = (userId: string) =>
  t.database.db
    .select()
    .from(authWebauthnCredentials)
    .where(eq(authWebauthnCredentials.userId, userId));

describe('passkeys', () => {
  it('registration stores the passkey with its default name; it then signs in through autofill', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const { done } = await registerWithPasskey(authenticator);
    const [passkey] = done.payload!.user.passkeys;
    const alnum = passkey.public_key.replace(/[^A-Za-z0-9]/g, '');
    expect(passkey).toMatchObject({
      name: `Passkey-${alnum.slice(-7)}`,
      mfa_only: false,
      transports: ['internal', 'hybrid'],
    });
    expect(done.payload!.claims.amr).toEqual(expect.arrayContaining(['otp', 'passkey']));

    // Conditional mediation: login_init carries discoverable request options.
    const init = await begin('login');
    const options = init.payload!.request_options;
    expect(options.publicKey).toMatchObject({ rpId: 'localhost' });
    expect(options.publicKey.allowCredentials ?? []).toEqual([]);
    const signedIn = await t.act(init, 'webauthn_verify_assertion_response', {
      assertion_response: authenticator.get(options),
    });
    expect(signedIn).toMatchObject({ name: 'success', status: 200 });
    expect(signedIn.payload!.last_login).toEqual({ login_method: 'passkey' });
    expect(signedIn.payload!.user.id).toBe(done.payload!.user.id);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: bearer(String(signedIn.headers['x-auth-token'])),
    });
    expect(login.statusCode).toBe(200);
    const [row] = await credentialRows(done.payload!.user.id);
    expect(row).toMatchObject({ signCount: 1 });
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it('signs in through login_passkey, whose options exist only when it is entered', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const { done } = await registerWithPasskey(authenticator);
    const init = await begin('login', {
      ...WEBAUTHN,
      webauthn_conditional_mediation_available: false,
    });
    expect(init.payload!.request_options).toBeUndefined();
    const passkey = await t.act(init, 'webauthn_generate_request_options');
    expect(passkey.name).toBe('login_passkey');
    expect(Object.keys(passkey.actions).sort()).toEqual([
      'back',
      'webauthn_verify_assertion_response',
    ]);
    const signedIn = await t.act(passkey, 'webauthn_verify_assertion_response', {
      assertion_response: authenticator.get(passkey.payload!.request_options),
    });
    expect(signedIn.name).toBe('success');
    expect(signedIn.payload!.claims.subject).toBe(done.payload!.user.id);
    expect(signedIn.payload!.claims.amr).toEqual(['passkey']);
  });

  it('refuses a wrong signature, a foreign origin or RP id, and a counter that does not grow', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const { done } = await registerWithPasskey(authenticator);
    const userId = done.payload!.user.id;

    let state = await begin('login');
    for (const bend of [
      { badSignature: true },
      { origin: 'https://sprechstunde.example.org' },
      { rpId: 'example.org' },
    ]) {
      const refused = await t.act(state, 'webauthn_verify_assertion_response', {
        assertion_response: authenticator.get(state.payload!.request_options, bend),
      });
      expect(refused).toMatchObject({
        name: 'login_init',
        status: 401,
        error: { code: 'passkey_invalid' },
      });
      expect(refused.headers['x-auth-token']).toBeUndefined();
      // Fresh options (a new challenge) come with the refusal.
      expect(refused.payload!.request_options.publicKey.challenge).not.toBe(
        state.payload!.request_options.publicKey.challenge,
      );
      state = refused;
    }
    expect((await credentialRows(userId))[0]).toMatchObject({ signCount: 0, lastUsedAt: null });

    const ok = await t.act(state, 'webauthn_verify_assertion_response', {
      assertion_response: authenticator.get(state.payload!.request_options, { counter: 5 }),
    });
    expect(ok.name).toBe('success');
    expect((await credentialRows(userId))[0]).toMatchObject({ signCount: 5 });

    // A counter at or below the stored one points to a cloned authenticator.
    const again = await begin('login');
    const cloned = await t.act(again, 'webauthn_verify_assertion_response', {
      assertion_response: authenticator.get(again.payload!.request_options, { counter: 5 }),
    });
    expect(cloned).toMatchObject({ status: 401, error: { code: 'passkey_invalid' } });
    expect((await credentialRows(userId))[0]).toMatchObject({ signCount: 5 });

    // An assertion answers one challenge only: replaying the good one fails too.
    const replay = await begin('login');
    const old = authenticator.get(state.payload!.request_options, { counter: 9 });
    const replayed = await t.act(replay, 'webauthn_verify_assertion_response', {
      assertion_response: old,
    });
    expect(replayed).toMatchObject({ status: 401, error: { code: 'passkey_invalid' } });
  });

  it('an unknown credential is refused without telling whose it could be', async () => {
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({
      publicKey: { challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: 'AAAA' } },
    });
    const init = await begin('login');
    const refused = await t.act(init, 'webauthn_verify_assertion_response', {
      assertion_response: stranger.get(init.payload!.request_options),
    });
    expect(refused).toMatchObject({
      name: 'login_init',
      status: 401,
      error: { code: 'passkey_invalid' },
    });
  });

  it('profile: add, rename (3 to 32 characters) and delete passkeys; an existing one cannot be added twice', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const { token, done } = await registerWithPasskey(authenticator);
    const [first] = done.payload!.user.passkeys;
    let init = await profile(token);
    expect(init.actions.webauthn_credential_create).toBeDefined();
    expect(init.actions.security_key_create).toBeDefined();

    const verification = await act(init, token, 'webauthn_credential_create');
    expect(verification.name).toBe('webauthn_credential_verification');
    const options = verification.payload!.creation_options;
    // The browser is told which credential is registered already…
    expect(options.publicKey.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([
      first.id,
    ]);
    // …and a response for it anyway is refused: back to profile_init with the reason.
    const duplicate = await act(verification, token, 'webauthn_verify_attestation_response', {
      public_key: authenticator.create(options, { credential: authenticator.credentials[0]! }),
    });
    expect(duplicate).toMatchObject({
      name: 'profile_init',
      status: 401,
      error: { code: 'passkey_invalid' },
    });
    expect(duplicate.payload!.user.passkeys).toHaveLength(1);

    const again = await act(duplicate, token, 'webauthn_credential_create');
    init = await act(again, token, 'webauthn_verify_attestation_response', {
      public_key: authenticator.create(again.payload!.creation_options),
    });
    expect(init).toMatchObject({ name: 'profile_init', status: 200 });
    const passkeys = init.payload!.user.passkeys as { id: string; name: string }[];
    expect(passkeys).toHaveLength(2);
    const second = passkeys[1]!;

    const short = await act(init, token, 'webauthn_credential_rename', {
      passkey_id: second.id,
      passkey_name: 'ab',
    });
    expect(short).toMatchObject({ status: 400, error: { code: 'form_data_invalid_error' } });
    expect(short.actions.webauthn_credential_rename!.inputs.passkey_name.error.code).toBe(
      'value_too_short_error',
    );
    const long = await act(short, token, 'webauthn_credential_rename', {
      passkey_id: second.id,
      passkey_name: 'x'.repeat(33),
    });
    expect(long.actions.webauthn_credential_rename!.inputs.passkey_name.error.code).toBe(
      'value_too_long_error',
    );
    const unknown = await act(long, token, 'webauthn_credential_rename', {
      passkey_id: 'nope',
      passkey_name: 'Laptop',
    });
    expect(unknown).toMatchObject({ status: 404, error: { code: 'not_found' } });
    const umlauts = 'Ü'.repeat(32); // 32 characters, 64 bytes
    const renamed = await act(unknown, token, 'webauthn_credential_rename', {
      passkey_id: second.id,
      passkey_name: umlauts,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.payload!.user.passkeys[1].name).toBe(umlauts);
    const three = await act(renamed, token, 'webauthn_credential_rename', {
      passkey_id: first.id,
      passkey_name: 'Abc',
    });
    expect(three.payload!.user.passkeys[0].name).toBe('Abc');

    const deleted = await act(three, token, 'webauthn_credential_delete', {
      passkey_id: second.id,
    });
    expect(deleted.payload!.user.passkeys.map((p: { id: string }) => p.id)).toEqual([first.id]);
    expect(await credentialRows(done.payload!.user.id)).toHaveLength(1);
  });
});

describe('security keys', () => {
  it('a key added in the profile is a second factor only, asked for after the password', async () => {
    const email = uniqueEmail('seckey');
    const registered = await t.register(email, 'richtig-123');
    const token = String(registered.headers['x-auth-token']);
    const key = new SoftAuthenticator(ORIGIN, ['usb']);

    const init = await profile(token);
    const verification = await act(init, token, 'security_key_create');
    expect(verification.name).toBe('webauthn_credential_verification');
    expect(verification.payload!.creation_options.publicKey.authenticatorSelection).toMatchObject({
      residentKey: 'discouraged',
      authenticatorAttachment: 'cross-platform',
    });
    const back = await act(verification, token, 'webauthn_verify_attestation_response', {
      public_key: key.create(verification.payload!.creation_options),
    });
    expect(back.name).toBe('profile_init');
    const [securityKey] = back.payload!.user.security_keys;
    expect(securityKey.name).toMatch(/^SecurityKey-[A-Za-z0-9]{7}$/);
    expect(securityKey.mfa_only).toBe(true);
    expect(back.payload!.user.passkeys).toBeUndefined();
    expect(back.payload!.user.mfa_config).toMatchObject({ security_keys_enabled: true });

    // Not a passkey: refused at login_init with its own error.
    const loginInit = await begin('login');
    const mfaOnly = await t.act(loginInit, 'webauthn_verify_assertion_response', {
      assertion_response: key.get(loginInit.payload!.request_options),
    });
    expect(mfaOnly).toMatchObject({
      status: 401,
      error: { code: 'webauthn_credential_invalid_mfa_only' },
    });

    // Password, then the key as second factor.
    const chooser = await t.act(mfaOnly, 'continue_with_login_identifier', { email });
    const pw = await t.act(chooser, 'continue_to_password_login');
    const second = await t.act(pw, 'password_login', { password: 'richtig-123' });
    expect(second.name).toBe('login_security_key');
    const keyLogin = await t.act(second, 'webauthn_generate_request_options');
    expect(keyLogin.name).toBe('login_passkey');
    const allowed = keyLogin.payload!.request_options.publicKey.allowCredentials;
    expect(allowed.map((c: { id: string }) => c.id)).toEqual([securityKey.id]);
    const onboarding = await t.act(keyLogin, 'webauthn_verify_assertion_response', {
      assertion_response: key.get(keyLogin.payload!.request_options),
    });
    // Still no passkey: offered after the second factor (skippable), then device trust.
    expect(onboarding.name).toBe('onboarding_create_passkey');
    const trust = await t.act(onboarding, 'skip');
    expect(trust.name).toBe('device_trust');
    expect(Object.keys(trust.actions).sort()).toEqual(['back', 'skip', 'trust_device']);
    const done = await t.act(trust, 'skip');
    expect(done.name).toBe('success');
    expect(done.payload!.last_login).toEqual({
      login_method: 'password',
      mfa_method: 'security_key',
    });
    expect(done.payload!.claims.amr).toEqual(['pwd', 'security_key']);
  });
});

describe('configuration', () => {
  it('without WebAuthn in the browser nothing WebAuthn is offered', async () => {
    const init = await begin('login', { webauthn_available: false });
    expect(init.payload).toEqual({});
    expect(init.actions.webauthn_generate_request_options).toBeUndefined();
    expect(init.actions.webauthn_verify_assertion_response).toBeUndefined();
  });

  it('passkeys off: no options, no passkey actions, no passkey onboarding; the RP comes from config', async () => {
    const off = await createAuthTestApp({ env: { AUTH_PASSKEYS_ENABLED: 'false' } });
    try {
      const first = await off.start('login');
      const init = await off.act(first, 'register_client_capabilities', WEBAUTHN);
      expect(init.payload!.request_options).toBeUndefined();
      expect(init.actions.webauthn_generate_request_options).toBeUndefined();
      const email = uniqueEmail('nopk');
      const reg = await off.act(
        await off.act(await off.start('registration'), 'register_client_capabilities', WEBAUTHN),
        'register_login_identifier',
        { email },
      );
      const next = await off.act(reg, 'verify_passcode', { code: await off.lastCode(email) });
      expect(next.name).toBe('password_creation');
    } finally {
      await off.close();
    }
    const custom = await createAuthTestApp({
      env: {
        AUTH_WEBAUTHN_RP_ID: 'praxis.example',
        AUTH_WEBAUTHN_ORIGINS: 'https://praxis.example',
      },
    });
    try {
      const first = await custom.start('login');
      const init = await custom.act(first, 'register_client_capabilities', WEBAUTHN);
      expect(init.payload!.request_options.publicKey.rpId).toBe('praxis.example');
    } finally {
      await custom.close();
    }
  });
});
