/**
 * The onboarding states the configuration switches on (flow protocol §3.2, §3.3): the
 * credential chooser, security-key set-up from the MFA chooser, username onboarding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthTestApp,
  uniqueEmail,
  type AuthTestApp,
  type FlowState,
} from '../support/auth-client';
import { SoftAuthenticator } from '../support/soft-authenticator';

const WEBAUTHN = {
  webauthn_available: true,
  webauthn_conditional_mediation_available: false,
  webauthn_platform_authenticator_available: true,
};

async function register(t: AuthTestApp, email: string) {
  const first = await t.start('registration');
  const init = await t.act(first, 'register_client_capabilities', WEBAUTHN);
  const pc = await t.act(init, 'register_login_identifier', { email });
  return t.act(pc, 'verify_passcode', { code: await t.lastCode(email) });
}

describe('conditional credentials and MFA set-up at registration', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await createAuthTestApp({
      env: {
        AUTH_PASSKEY_ACQUIRE_ON_REGISTRATION: 'conditional',
        AUTH_PASSWORD_ACQUIRE_ON_REGISTRATION: 'conditional',
        AUTH_MFA_ACQUIRE_ON_REGISTRATION: 'true',
      },
    });
  });
  afterAll(() => t?.close());

  it('credential_onboarding_chooser → password; then mfa_method_chooser → a security key', async () => {
    const email = uniqueEmail('chooser');
    const chooser = await register(t, email);
    expect(chooser.name).toBe('credential_onboarding_chooser');
    expect(Object.keys(chooser.actions).sort()).toEqual([
      'continue_to_passkey_registration',
      'continue_to_password_registration',
      'skip',
    ]);
    const pw = await t.act(chooser, 'continue_to_password_registration');
    expect(pw.name).toBe('password_creation');
    expect(pw.actions.skip).toBeUndefined(); // chosen from the chooser: back instead
    expect(pw.actions.back).toBeDefined();
    const mfa = await t.act(pw, 'register_password', { new_password: 'richtig-123' });
    expect(mfa.name).toBe('mfa_method_chooser');
    expect(Object.keys(mfa.actions).sort()).toEqual([
      'continue_to_otp_secret_creation',
      'continue_to_security_key_creation',
      'skip',
    ]);
    const keyStep = await t.act(mfa, 'continue_to_security_key_creation');
    expect(keyStep.name).toBe('mfa_security_key_creation');
    const verify = await t.act(keyStep, 'webauthn_generate_creation_options');
    expect(verify.name).toBe('onboarding_verify_passkey_attestation');
    const key = new SoftAuthenticator('http://localhost:3000', ['usb']);
    // A response signed for another origin is refused: back one step, with the reason.
    const refused = await t.act(verify, 'webauthn_verify_attestation_response', {
      public_key: key.create(verify.payload!.creation_options, {
        origin: 'https://elsewhere.example',
      }),
    });
    expect(refused).toMatchObject({
      name: 'mfa_security_key_creation',
      status: 401,
      error: { code: 'passkey_invalid' },
    });
    const again = await t.act(refused, 'webauthn_generate_creation_options');
    const done = await t.act(again, 'webauthn_verify_attestation_response', {
      public_key: key.create(again.payload!.creation_options),
    });
    expect(done.name).toBe('success');
    expect(done.payload!.user.security_keys).toHaveLength(1);
    expect(done.payload!.user.passkeys).toBeUndefined();
    expect(done.payload!.claims.amr).toEqual(['otp', 'pwd', 'security_key']);
  });

  it('the chooser can be skipped (the passcode remains); MFA set-up too', async () => {
    const chooser = await register(t, uniqueEmail('skip'));
    const mfa = await t.act(chooser, 'skip');
    expect(mfa.name).toBe('mfa_method_chooser');
    const done = await t.act(mfa, 'skip');
    expect(done.name).toBe('success');
  });
});

describe('username onboarding at login', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await createAuthTestApp({ env: { AUTH_USERNAME: 'optional' } });
  });
  afterAll(() => t?.close());

  async function login(email: string): Promise<FlowState> {
    const init = await t.begin('login');
    const chooser = await t.act(init, 'continue_with_login_identifier', { identifier: email });
    const pw = await t.act(chooser, 'continue_to_password_login');
    return t.act(pw, 'password_login', { password: 'richtig-123' });
  }

  it('asks a person without a username for one (skippable), checks it, and not again', async () => {
    const email = uniqueEmail('uname');
    await t.register(email, 'richtig-123');
    const skipped = await login(email);
    expect(skipped.name).toBe('onboarding_username');
    expect((await t.act(skipped, 'skip')).name).toBe('success');

    const ask = await login(email);
    const bad = await t.act(ask, 'username_create', { username: 'mit leerzeichen' });
    expect(bad.actions.username_create!.inputs.username.error.code).toBe('invalid_username_error');
    const name = `u${Date.now().toString(36)}`;
    const done = await t.act(bad, 'username_create', { username: name });
    expect(done.name).toBe('success');
    expect(done.payload!.user.username.username).toBe(name);
    expect((await login(email)).name).toBe('success');
  });
});
