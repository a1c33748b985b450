/**
 * Authenticator apps (TOTP, RFC 6238) and device trust (flow protocol §3.2, §3.6): codes
 * are computed with otpauth from the secret the provider shows, as an authenticator app
 * would.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOtpSecrets } from '../../server/db/schema/index';
import {
  createAuthTestApp,
  uniqueEmail,
  type AuthTestApp,
  type FlowState,
} from '../support/auth-client';
import { SoftAuthenticator } from '../support/soft-authenticator';

/** The code an authenticator app shows for `secret`, `offsetSteps` periods from now. */
const codeFor = (secret: string, offsetSteps = 0) =>
  TOTP.generate({
    secret: Secret.fromBase32(secret),
    timestamp: Date.now() + offsetSteps * 30_000,
  });
const wrongCode = (secret: string) => (codeFor(secret) === '000000' ? '111111' : '000000');

function act(
  t: AuthTestApp,
  state: FlowState,
  name: string,
  input: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const action = state.actions[name];
  if (!action)
    throw new Error(
      `${state.name} offers no ${name} (has ${Object.keys(state.actions).join(', ')})`,
    );
  return t.post(action.href, { input_data: input, csrf_token: state.csrf_token }, headers);
}

async function passwordLogin(
  t: AuthTestApp,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) {
  const first = await t.post('/login', undefined, headers);
  const init = await act(
    t,
    first,
    'register_client_capabilities',
    { webauthn_available: false },
    headers,
  );
  const chooser = await act(t, init, 'continue_with_login_identifier', { email }, headers);
  const pw = await act(t, chooser, 'continue_to_password_login', {}, headers);
  return act(t, pw, 'password_login', { password }, headers);
}

const setCookies = (state: FlowState) => [state.headers['set-cookie'] ?? []].flat().map(String);

describe('MFA required', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await createAuthTestApp({ env: { AUTH_MFA: 'required' } });
  });
  afterAll(() => t?.close());

  const email = uniqueEmail('totp');
  const password = 'richtig-123';
  let secret = '';
  let userId = '';
  let deviceCookie = '';

  it('registration ends with setting up an authenticator app (QR code and secret); a wrong code is refused', async () => {
    const init = await t.begin('registration');
    const pc = await t.act(init, 'register_login_identifier', { email });
    const pw = await t.act(pc, 'verify_passcode', { code: await t.lastCode(email) });
    const chooser = await t.act(pw, 'register_password', { new_password: password });
    expect(chooser.name).toBe('mfa_method_chooser');
    // Required: no skip; no security key without WebAuthn in the browser.
    expect(Object.keys(chooser.actions)).toEqual(['continue_to_otp_secret_creation']);

    const setup = await t.act(chooser, 'continue_to_otp_secret_creation');
    expect(setup.name).toBe('mfa_otp_secret_creation');
    secret = setup.payload!.otp_secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const image = setup.payload!.otp_image_source as string;
    expect(image).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(image.split(',')[1]!, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([200, 200]);

    const wrong = await t.act(setup, 'otp_code_verify', { otp_code: wrongCode(secret) });
    expect(wrong).toMatchObject({
      name: 'mfa_otp_secret_creation',
      status: 400,
      error: { code: 'form_data_invalid_error' },
    });
    expect(wrong.actions.otp_code_verify!.inputs.otp_code.error.code).toBe('passcode_invalid');
    expect(wrong.payload!.otp_secret).toBe(secret); // the same secret on every render

    const done = await t.act(wrong, 'otp_code_verify', { otp_code: codeFor(secret) });
    expect(done.name).toBe('success');
    expect(done.payload!.claims.amr).toEqual(expect.arrayContaining(['pwd', 'totp']));
    expect(done.payload!.user.mfa_config).toEqual({
      auth_app_set_up: true,
      totp_enabled: true,
      security_keys_enabled: true,
    });
    userId = done.payload!.user.id;

    const [row] = await t.database.db
      .select()
      .from(authOtpSecrets)
      .where(eq(authOtpSecrets.userId, userId));
    expect(row!.secretEncrypted).not.toContain(secret);
  });

  it('login asks for the app code; a wrong or reused code is refused; trusting the device sets its cookie', async () => {
    const otp = await passwordLogin(t, email, password);
    expect(otp.name).toBe('login_otp');
    expect(Object.keys(otp.actions)).toEqual(['otp_code_validate']);
    const wrong = await act(t, otp, 'otp_code_validate', { otp_code: wrongCode(secret) });
    expect(wrong).toMatchObject({ name: 'login_otp', status: 400 });
    expect(wrong.actions.otp_code_validate!.inputs.otp_code.error.code).toBe('otp_code_invalid');
    // The set-up code's time step is used up; the next step's code (clock drift allows ±1) is fresh.
    const code = codeFor(secret, 1);
    const trust = await act(t, wrong, 'otp_code_validate', { otp_code: code });
    expect(trust.name).toBe('device_trust');

    // Twenty other people signed in on this device before: the oldest pair drops out.
    const others = Array.from({ length: 20 }, () => `${randomUUID()}:${'x'.repeat(43)}`);
    const done = await act(
      t,
      trust,
      'trust_device',
      {},
      { cookie: `hanko-device-token=${encodeURIComponent(others.join('|'))}` },
    );
    expect(done.name).toBe('success');
    expect(done.payload!.last_login).toEqual({ login_method: 'password', mfa_method: 'totp' });
    const cookie = setCookies(done).find((c) => c.startsWith('hanko-device-token='))!;
    expect(cookie).toMatch(/; Path=\/; Max-Age=2592000; HttpOnly; Secure; SameSite=None/);
    const pairs = decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!).split('|');
    expect(pairs).toHaveLength(20);
    expect(pairs.at(-1)).toMatch(new RegExp(`^${userId}:[\\w-]{43}$`));
    expect(pairs).not.toContain(others[0]);
    expect(pairs).toContain(others[19]);
    deviceCookie = `hanko-device-token=${encodeURIComponent(pairs.at(-1)!)}`;

    const replay = await passwordLogin(t, email, password);
    const reused = await act(t, replay, 'otp_code_validate', { otp_code: code });
    expect(reused.actions.otp_code_validate!.inputs.otp_code.error.code).toBe(
      'otp_code_already_used',
    );
  });

  it('a trusted device skips the second factor; another device or a forged token does not', async () => {
    const trusted = await passwordLogin(t, email, password, { cookie: deviceCookie });
    expect(trusted.name).toBe('success');
    expect(trusted.payload!.claims.amr).toEqual(['pwd']);

    expect((await passwordLogin(t, email, password)).name).toBe('login_otp');
    const forged = `hanko-device-token=${encodeURIComponent(`${userId}:${'y'.repeat(43)}`)}`;
    expect((await passwordLogin(t, email, password, { cookie: forged })).name).toBe('login_otp');
  });

  it('the only second factor cannot be removed in the profile', async () => {
    const done = await passwordLogin(t, email, password, { cookie: deviceCookie });
    const token = String(done.headers['x-auth-token']);
    const headers = { authorization: `Bearer ${token}` };
    const first = await t.post('/profile', undefined, headers);
    const init = await act(
      t,
      first,
      'register_client_capabilities',
      { webauthn_available: false },
      headers,
    );
    expect(init.name).toBe('profile_init');
    expect(init.actions.otp_secret_delete).toBeUndefined();
    expect(init.actions.continue_to_otp_secret_creation).toBeUndefined();
  });

  it('a passkey added in the profile returns to the profile, also for someone without a second factor', async () => {
    const person = uniqueEmail('mfa-passkey');
    const init = await t.begin('registration');
    const pc = await t.act(init, 'register_login_identifier', { email: person });
    const pw = await t.act(pc, 'verify_passcode', { code: await t.lastCode(person) });
    const chooser = await t.act(pw, 'register_password', { new_password: password });
    const setup = await t.act(chooser, 'continue_to_otp_secret_creation');
    const done = await t.act(setup, 'otp_code_verify', {
      otp_code: codeFor(setup.payload!.otp_secret),
    });
    // As for someone who signed up before MFA became required: no second factor yet.
    await t.database.db
      .delete(authOtpSecrets)
      .where(eq(authOtpSecrets.userId, done.payload!.user.id));
    const headers = { authorization: `Bearer ${String(done.headers['x-auth-token'])}` };
    const first = await t.post('/profile', undefined, headers);
    const profile = await act(
      t,
      first,
      'register_client_capabilities',
      { webauthn_available: true },
      headers,
    );
    const verification = await act(t, profile, 'webauthn_credential_create', {}, headers);
    const authenticator = new SoftAuthenticator('http://localhost:3000');
    const back = await act(
      t,
      verification,
      'webauthn_verify_attestation_response',
      {
        public_key: authenticator.create(verification.payload!.creation_options),
      },
      headers,
    );
    expect(back).toMatchObject({ name: 'profile_init', status: 200 });
    expect(back.payload!.user.passkeys).toHaveLength(1);
  });
});

describe('MFA optional (default)', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await createAuthTestApp();
  });
  afterAll(() => t?.close());

  it('nobody is asked to set up MFA; the profile adds and removes the authenticator app', async () => {
    const email = uniqueEmail('optional');
    const registered = await t.register(email, 'richtig-123');
    expect(registered.payload!.user.mfa_config.auth_app_set_up).toBe(false);
    expect((await passwordLogin(t, email, 'richtig-123')).name).toBe('success');

    const headers = { authorization: `Bearer ${String(registered.headers['x-auth-token'])}` };
    const first = await t.post('/profile', undefined, headers);
    const init = await act(
      t,
      first,
      'register_client_capabilities',
      { webauthn_available: false },
      headers,
    );
    expect(init.actions.otp_secret_delete).toBeUndefined();
    const setup = await act(t, init, 'continue_to_otp_secret_creation', {}, headers);
    expect(setup.name).toBe('mfa_otp_secret_creation');
    expect(Object.keys(setup.actions).sort()).toEqual(['back', 'otp_code_verify']);
    const secret = setup.payload!.otp_secret;
    const wrong = await act(t, setup, 'otp_code_verify', { otp_code: wrongCode(secret) }, headers);
    expect(wrong.actions.otp_code_verify!.inputs.otp_code.error.code).toBe('passcode_invalid');
    const back = await act(t, wrong, 'otp_code_verify', { otp_code: codeFor(secret) }, headers);
    expect(back.name).toBe('profile_init');
    expect(back.payload!.user.mfa_config.auth_app_set_up).toBe(true);
    expect(back.actions.continue_to_otp_secret_creation).toBeUndefined();

    // Now a login asks for the code.
    const otp = await passwordLogin(t, email, 'richtig-123');
    expect(otp.name).toBe('login_otp');

    const removed = await act(t, back, 'otp_secret_delete', {}, headers);
    expect(removed.payload!.user.mfa_config.auth_app_set_up).toBe(false);
    expect((await passwordLogin(t, email, 'richtig-123')).name).toBe('success');
  });
});
