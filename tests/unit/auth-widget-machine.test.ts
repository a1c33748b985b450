import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import {
  authFlowMachine,
  promptFailure,
  type AuthFlowEmitted,
} from '../../src/machines/auth/flow.machine';
import type { FlowName } from '../../src/machines/auth/types';
import {
  confirmMachine,
  copyMachine,
  eventThrottleMachine,
} from '../../src/machines/auth/support.machines';
import { fromPromise } from 'xstate';
import {
  fakeProvider,
  flush,
  loginInitState,
  preflightState,
  reply,
  state,
} from './auth-widget.fixtures';

type Provider = ReturnType<typeof fakeProvider>;

function run(provider: Provider, flowName: FlowName = 'login') {
  const clock = new SimulatedClock();
  const actor = createActor(authFlowMachine.provide({ actors: provider.actors }), {
    input: { flowName },
    clock,
  });
  const emitted: AuthFlowEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  const screen = () => {
    const value = actor.getSnapshot().value;
    return typeof value === 'string' ? value : Object.keys(value)[0];
  };
  /** Advances the simulated clock one second at a time, letting promises settle. */
  const tick = async (ms: number) => {
    for (let left = ms; left > 0; left -= 1000) {
      clock.increment(Math.min(1000, left));
      await flush();
    }
  };
  return { actor, clock, emitted, screen, tick };
}

/** A login flow that went through preflight and shows `login_init`. */
async function atLoginInit(provider: Provider, init = loginInitState()) {
  provider.on('register_client_capabilities', reply(init));
  const r = run(provider);
  await flush();
  await flush();
  expect(r.screen()).toBe('login_init');
  return r;
}

const passwordState = (extra = {}) =>
  state(
    'login_password',
    {
      password_login: { password: { type: 'password', required: true } },
      continue_to_passcode_confirmation_recovery: {},
      back: {},
    },
    extra,
  );

describe('authFlowMachine: the server decides the next state', () => {
  it('reports the client capabilities in preflight, then shows the state the server names', async () => {
    const provider = fakeProvider({
      capabilities: {
        webauthn_available: true,
        webauthn_conditional_mediation_available: false,
        webauthn_platform_authenticator_available: true,
      },
    });
    await atLoginInit(provider);
    expect(provider.calls).toEqual([
      {
        action: 'register_client_capabilities',
        csrfToken: expect.any(String),
        inputs: {
          webauthn_available: true,
          webauthn_conditional_mediation_available: false,
          webauthn_platform_authenticator_available: true,
        },
      },
    ]);
  });

  it('sends the csrf token of the latest answer and the identifier the person typed', async () => {
    const provider = fakeProvider();
    const init = loginInitState();
    const { actor, screen } = await atLoginInit(provider, init);
    provider.on('continue_with_login_identifier', reply(passwordState()));
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: 'a@example.org' },
    });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    expect(screen()).toBe('login_password');
    expect(provider.calls[1]).toEqual({
      action: 'continue_with_login_identifier',
      inputs: { email: 'a@example.org' },
      csrfToken: init.csrf_token,
    });
  });

  it('ends in the "handler not found" error screen for a state it does not know', async () => {
    const provider = fakeProvider();
    provider.on('register_client_capabilities', reply(state('login_with_carrier_pigeon' as never)));
    const { actor, screen } = run(provider);
    await flush();
    await flush();
    expect(screen()).toBe('handlerNotFound');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'handler_not_found' });
    expect(actor.getSnapshot().hasTag('error screen')).toBe(true);
  });

  it('restarts the flow from an error screen with Continue', async () => {
    const provider = fakeProvider();
    provider.on(
      'register_client_capabilities',
      reply(
        state('error', {}, { status: 410, error: { code: 'flow_expired_error', message: 'x' } }),
      ),
    );
    provider.on('register_client_capabilities', reply(loginInitState()));
    const { actor, screen } = run(provider);
    await flush();
    await flush();
    expect(screen()).toBe('error');
    expect(actor.getSnapshot().context.error?.code).toBe('flow_expired_error');
    actor.send({ type: 'flow.restart' });
    await flush();
    await flush();
    expect(screen()).toBe('login_init');
    expect(provider.starts).toBe(2);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('does not send bad input: the e-mail must match the pattern and not be all digits', async () => {
    const provider = fakeProvider();
    const { actor, screen } = await atLoginInit(provider);
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: '0123456789' },
    });
    expect(screen()).toBe('login_init');
    expect(actor.getSnapshot().context.clientErrors).toEqual({ email: 'value_invalid_error' });
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: '' },
    });
    expect(actor.getSnapshot().context.clientErrors).toEqual({ email: 'value_missing_error' });
    expect(provider.calls.map((c) => c.action)).toEqual(['register_client_capabilities']);
  });

  it('ignores actions the server does not offer', async () => {
    const provider = fakeProvider();
    const { actor, screen } = await atLoginInit(provider);
    actor.send({ type: 'action.run', name: 'password_login', inputs: { password: 'x' } });
    expect(screen()).toBe('login_init');
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(provider.calls).toHaveLength(1);
  });

  it('shows form_data_invalid_error at the field, not as a banner, and counts passcode_invalid', async () => {
    const provider = fakeProvider();
    const { actor } = await atLoginInit(provider);
    const passcode = state('passcode_confirmation', {
      verify_passcode: { code: true },
      resend_passcode: {},
    });
    provider.on('continue_with_login_identifier', reply(passcode));
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: 'a@example.org' },
    });
    await flush();
    const wrong = state(
      'passcode_confirmation',
      {
        verify_passcode: {
          code: { required: true, error: { code: 'passcode_invalid', message: 'x' } },
        },
        resend_passcode: {},
      },
      { status: 400, error: { code: 'form_data_invalid_error', message: 'Form data invalid.' } },
    );
    provider.on('verify_passcode', reply(wrong));
    const before = actor.getSnapshot().context.codeResets;
    actor.send({ type: 'action.run', name: 'verify_passcode', inputs: { code: '111111' } });
    await flush();
    const context = actor.getSnapshot().context;
    expect(context.error).toBeNull();
    expect(context.response?.actions.verify_passcode?.inputs.code?.error?.code).toBe(
      'passcode_invalid',
    );
    expect(context.codeResets).toBe(before + 1);
  });

  it('counts a wrong or reused authenticator-app code too, so the boxes clear for the next try', async () => {
    const provider = fakeProvider();
    const { actor } = await atLoginInit(provider);
    const otp = (error?: 'otp_code_invalid' | 'otp_code_already_used') =>
      state(
        'login_otp',
        {
          otp_code_validate: {
            otp_code: error ? { required: true, error: { code: error, message: 'x' } } : true,
          },
        },
        error
          ? {
              status: 400,
              error: { code: 'form_data_invalid_error', message: 'Form data invalid.' },
            }
          : {},
      );
    provider.on('continue_with_login_identifier', reply(otp()));
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: 'a@example.org' },
    });
    await flush();
    const before = actor.getSnapshot().context.codeResets;
    provider.on('otp_code_validate', reply(otp('otp_code_invalid')));
    actor.send({ type: 'action.run', name: 'otp_code_validate', inputs: { otp_code: '000000' } });
    await flush();
    expect(actor.getSnapshot().context.codeResets).toBe(before + 1);
    provider.on('otp_code_validate', reply(otp('otp_code_already_used')));
    actor.send({ type: 'action.run', name: 'otp_code_validate', inputs: { otp_code: '123456' } });
    await flush();
    expect(actor.getSnapshot().context.codeResets).toBe(before + 2);
  });
});

describe('authFlowMachine: time', () => {
  it('counts the 429 retry down each second with the rate-limited action refused', async () => {
    const provider = fakeProvider();
    const { actor, tick } = await atLoginInit(provider);
    provider.on('continue_with_login_identifier', reply(passwordState()));
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: 'a@example.org' },
    });
    await flush();
    provider.on(
      'password_login',
      reply(
        passwordState({
          status: 429,
          payload: { retry_after: 3 },
          error: { code: 'rate_limit_exceeded', message: 'x' },
        }),
      ),
    );
    actor.send({ type: 'action.run', name: 'password_login', inputs: { password: 'secret-1' } });
    await flush();
    const snap = () => actor.getSnapshot();
    expect(snap().hasTag('retryCountdown')).toBe(true);
    expect(snap().context.retrySeconds).toBe(3);
    expect(snap().context.error?.code).toBe('rate_limit_exceeded');

    actor.send({ type: 'action.run', name: 'password_login', inputs: { password: 'secret-2' } });
    expect(provider.calls.filter((c) => c.action === 'password_login')).toHaveLength(1);

    await tick(1000);
    expect(snap().context.retrySeconds).toBe(2);
    await tick(1000);
    expect(snap().context.retrySeconds).toBe(1);
    expect(snap().hasTag('retryCountdown')).toBe(true);
    await tick(1000);
    expect(snap().hasTag('retryCountdown')).toBe(false);

    provider.on('password_login', reply(state('success', {}, { payload: {} })));
    actor.send({ type: 'action.run', name: 'password_login', inputs: { password: 'secret-3' } });
    expect(provider.calls.filter((c) => c.action === 'password_login')).toHaveLength(2);
  });

  it('still allows "Passwort vergessen?" during the retry countdown', async () => {
    const provider = fakeProvider();
    const { actor, screen } = await atLoginInit(provider);
    provider.on(
      'continue_with_login_identifier',
      reply(
        passwordState({
          status: 429,
          payload: { retry_after: 30 },
          error: { code: 'rate_limit_exceeded', message: 'x' },
        }),
      ),
    );
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: 'a@example.org' },
    });
    await flush();
    provider.on(
      'continue_to_passcode_confirmation_recovery',
      reply(state('passcode_confirmation', { verify_passcode: { code: true } })),
    );
    actor.send({ type: 'action.run', name: 'continue_to_passcode_confirmation_recovery' });
    await flush();
    expect(screen()).toBe('passcode_confirmation');
  });

  it('gives up a request after 13 s and says so', async () => {
    const provider = fakeProvider();
    const { actor, tick, screen } = await atLoginInit(provider);
    provider.on('continue_with_login_identifier', 'never');
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: 'a@example.org' },
    });
    await tick(12_000);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await tick(1000);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(screen()).toBe('login_init');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'request_timeout' });
  });

  it('counts resend_after down before a new passcode may be requested', async () => {
    const provider = fakeProvider();
    const { actor, tick } = await atLoginInit(provider);
    provider.on(
      'continue_with_login_identifier',
      reply(
        state(
          'passcode_confirmation',
          { verify_passcode: { code: true }, resend_passcode: {} },
          { payload: { resend_after: 2 } },
        ),
      ),
    );
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: 'a@example.org' },
    });
    await flush();
    expect(actor.getSnapshot().hasTag('resendCountdown')).toBe(true);
    actor.send({ type: 'action.run', name: 'resend_passcode' });
    expect(provider.calls.some((c) => c.action === 'resend_passcode')).toBe(false);
    await tick(2000);
    expect(actor.getSnapshot().hasTag('resendCountdown')).toBe(false);
    provider.on(
      'resend_passcode',
      reply(
        state('passcode_confirmation', { verify_passcode: { code: true }, resend_passcode: {} }),
      ),
    );
    actor.send({ type: 'action.run', name: 'resend_passcode' });
    expect(provider.calls.some((c) => c.action === 'resend_passcode')).toBe(true);
  });
});

describe('authFlowMachine: success and account deletion', () => {
  it('fires session-created with the token and lifetime and saves the last login', async () => {
    const provider = fakeProvider();
    const { actor, emitted, screen } = await atLoginInit(provider);
    provider.on('continue_with_login_identifier', reply(passwordState()));
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: 'a@example.org' },
    });
    await flush();
    const success = state(
      'success',
      {},
      {
        payload: {
          claims: { subject: 'user-1' } as never,
          last_login: { login_method: 'password' },
        },
      },
    );
    provider.on(
      'password_login',
      reply(success, { token: 'jwt.token.here', sessionLifetime: 43200 }),
    );
    actor.send({ type: 'action.run', name: 'password_login', inputs: { password: 'geheim123' } });
    await flush();
    expect(screen()).toBe('success');
    expect(actor.getSnapshot().hasTag('succeeded')).toBe(true);
    expect(emitted).toEqual([
      {
        type: 'session-created',
        token: 'jwt.token.here',
        userId: 'user-1',
        expiresInSeconds: 43200,
      },
    ]);
    expect(provider.lastLogins).toEqual([{ login_method: 'password' }]);
  });

  it('says the session is kept only until the browser closes when the provider says so', async () => {
    const provider = fakeProvider();
    provider.on(
      'register_client_capabilities',
      reply(state('success', {}, { payload: { claims: { subject: 'user-1' } as never } }), {
        token: 'jwt.token.here',
        sessionLifetime: 43200,
        sessionRetention: 'session',
      }),
    );
    const { emitted } = run(provider);
    await flush();
    await flush();
    expect(emitted).toEqual([
      {
        type: 'session-created',
        token: 'jwt.token.here',
        userId: 'user-1',
        expiresInSeconds: 43200,
        persistent: false,
      },
    ]);
  });

  it('fires user-deleted on account_deleted, and only after the confirmation box', async () => {
    const provider = fakeProvider({
      start: preflightState(),
    });
    provider.on(
      'register_client_capabilities',
      reply(state('profile_init', { account_delete: {} }, { payload: { sessions: [] } })),
    );
    const { actor, emitted, screen } = run(provider, 'profile');
    await flush();
    await flush();
    await flush();
    expect(screen()).toBe('profile_init');
    actor.send({ type: 'profile.deleteAccount' });
    expect(actor.getSnapshot().hasTag('deletingAccount')).toBe(true);
    actor.send({ type: 'action.run', name: 'account_delete' });
    expect(actor.getSnapshot().context.clientErrors).toEqual({ confirm: 'confirmation_required' });
    expect(provider.calls.map((c) => c.action)).not.toContain('account_delete');
    provider.on('account_delete', reply(state('account_deleted')));
    actor.send({ type: 'action.run', name: 'account_delete', confirmed: true });
    await flush();
    expect(screen()).toBe('account_deleted');
    expect(emitted).toEqual([{ type: 'user-deleted' }]);
    expect(provider.calls.at(-1)?.inputs).toEqual({});
  });
});

describe('authFlowMachine: profile', () => {
  const profile = (emails: string[]) =>
    state(
      'profile_init',
      { email_create: { email: { type: 'email', required: true } } },
      {
        payload: {
          user: {
            id: 'u',
            user_id: 'u',
            emails: emails.map((address, i) => ({
              id: `e${i}`,
              address,
              is_primary: i === 0,
              is_verified: true,
            })),
            mfa_config: {
              auth_app_set_up: false,
              totp_enabled: false,
              security_keys_enabled: false,
            },
            created_at: '2025-01-01T00:00:00Z',
            updated_at: '2025-01-01T00:00:00Z',
          },
          sessions: [],
        },
      },
    );

  it('shows the error screen without a session and never starts a flow', async () => {
    const provider = fakeProvider({ session: false });
    const { actor, screen } = run(provider, 'profile');
    await flush();
    await flush();
    expect(screen()).toBe('failed');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'session_missing' });
    expect(provider.starts).toBe(0);
  });

  it('fires session-expired when the provider refuses the session (401 unauthorized)', async () => {
    const provider = fakeProvider({
      start: state(
        'error',
        {},
        { status: 401, csrf_token: '', error: { code: 'unauthorized', message: 'x' } },
      ),
    });
    const { emitted, screen } = run(provider, 'profile');
    await flush();
    await flush();
    expect(screen()).toBe('error');
    expect(emitted).toEqual([{ type: 'session-expired' }]);
  });

  it('waits about 360 ms after a successful action before showing the refreshed profile', async () => {
    const provider = fakeProvider();
    provider.on('register_client_capabilities', reply(profile(['a@example.org'])));
    const { actor, clock, screen } = run(provider, 'profile');
    await flush();
    await flush();
    await flush();
    expect(screen()).toBe('profile_init');
    provider.on('email_create', reply(profile(['a@example.org', 'b@example.org'])));
    actor.send({ type: 'action.run', name: 'email_create', inputs: { email: 'b@example.org' } });
    await flush();
    expect(actor.getSnapshot().hasTag('succeeded')).toBe(true);
    expect(actor.getSnapshot().context.response?.payload?.user?.emails).toHaveLength(1);
    clock.increment(359);
    expect(actor.getSnapshot().hasTag('succeeded')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().hasTag('succeeded')).toBe(false);
    expect(actor.getSnapshot().context.response?.payload?.user?.emails).toHaveLength(2);
  });

  it('restarts the profile when a new session is created', async () => {
    const provider = fakeProvider();
    provider.on(
      'register_client_capabilities',
      reply(profile(['a@example.org'])),
      reply(profile(['a@example.org'])),
    );
    const { screen } = run(provider, 'profile');
    await flush();
    await flush();
    await flush();
    expect(provider.starts).toBe(1);
    provider.appEvent('auth.sessionCreated');
    await flush();
    await flush();
    await flush();
    expect(provider.starts).toBe(2);
    expect(screen()).toBe('profile_init');
  });

  it('renames a passkey only with a name of 3 to 32 characters', async () => {
    const provider = fakeProvider();
    provider.on(
      'register_client_capabilities',
      reply(
        state('profile_init', {
          webauthn_credential_rename: {
            passkey_id: { required: true, hidden: true },
            passkey_name: true,
          },
        }),
      ),
    );
    const { actor } = run(provider, 'profile');
    await flush();
    await flush();
    await flush();
    actor.send({ type: 'profile.rename', kind: 'passkey', id: 'pk1' });
    expect(actor.getSnapshot().hasTag('renaming')).toBe(true);
    actor.send({
      type: 'action.run',
      name: 'webauthn_credential_rename',
      inputs: { passkey_id: 'pk1', passkey_name: 'ab' },
    });
    expect(actor.getSnapshot().context.clientErrors).toEqual({
      passkey_name: 'value_too_short_error',
    });
    actor.send({
      type: 'action.run',
      name: 'webauthn_credential_rename',
      inputs: { passkey_id: 'pk1', passkey_name: 'x'.repeat(33) },
    });
    expect(actor.getSnapshot().context.clientErrors).toEqual({
      passkey_name: 'value_too_long_error',
    });
    provider.on('webauthn_credential_rename', reply(state('profile_init', {})));
    actor.send({
      type: 'action.run',
      name: 'webauthn_credential_rename',
      inputs: { passkey_id: 'pk1', passkey_name: 'Laptop' },
    });
    expect(provider.calls.at(-1)).toMatchObject({
      action: 'webauthn_credential_rename',
      inputs: { passkey_id: 'pk1', passkey_name: 'Laptop' },
    });
  });
});

describe('authFlowMachine: passkeys', () => {
  const options = { publicKey: { challenge: 'abc' } };

  it('offers conditional mediation at login_init and sends the chosen passkey', async () => {
    const provider = fakeProvider();
    provider.conditionalResolves({ id: 'cred' });
    provider.on('webauthn_verify_assertion_response', reply(state('success')));
    const init = state(
      'login_init',
      {
        continue_with_login_identifier: { email: true },
        webauthn_verify_assertion_response: {
          assertion_response: { type: 'json', required: true },
        },
      },
      { payload: { request_options: options } },
    );
    provider.on('register_client_capabilities', reply(init));
    const { screen } = run(provider);
    await flush();
    await flush();
    await flush();
    expect(provider.passkeyPrompts).toEqual([{ kind: 'conditional', options }]);
    expect(provider.calls.at(-1)).toMatchObject({
      action: 'webauthn_verify_assertion_response',
      inputs: { assertion_response: { id: 'cred' } },
    });
    expect(screen()).toBe('success');
  });

  it('goes back and says so when the passkey prompt at login is cancelled or times out', async () => {
    const provider = fakeProvider();
    const { actor, screen } = await atLoginInit(
      provider,
      state('login_init', {
        continue_with_login_identifier: { email: true },
        webauthn_generate_request_options: {},
      }),
    );
    provider.passkeyFails('NotAllowedError');
    provider.on(
      'webauthn_generate_request_options',
      reply(
        state(
          'login_passkey',
          {
            webauthn_verify_assertion_response: { assertion_response: { type: 'json' } },
            back: {},
          },
          { payload: { request_options: options } },
        ),
      ),
    );
    provider.on('back', reply(loginInitState()));
    actor.send({ type: 'action.run', name: 'webauthn_generate_request_options' });
    await flush();
    await flush();
    expect(provider.calls.map((c) => c.action).slice(-2)).toEqual([
      'webauthn_generate_request_options',
      'back',
    ]);
    expect(screen()).toBe('login_init');
    // The screen it went back to offers the other ways; the message says what happened.
    expect(actor.getSnapshot().context.error).toEqual({ code: 'passkey_cancelled' });
  });

  it('says a passkey sign-in timed out (AbortError) like a cancel, and keeps other errors', () => {
    expect(promptFailure(webAuthnError('AbortError'))).toEqual({ code: 'passkey_cancelled' });
    expect(promptFailure(webAuthnError('SecurityError'))).toBeNull();
  });

  /** Onboarding offers a passkey; creating it fails in the browser with `failure`. */
  async function failedCreation(failure: Error) {
    const provider = fakeProvider();
    const offer = () =>
      state('onboarding_create_passkey', { webauthn_generate_creation_options: {}, skip: {} });
    provider.on('register_client_capabilities', reply(offer()));
    const { actor, screen } = run(provider);
    await flush();
    await flush();
    provider.passkeyRejects(failure);
    provider.on(
      'webauthn_generate_creation_options',
      reply(
        state(
          'onboarding_verify_passkey_attestation',
          { webauthn_verify_attestation_response: { public_key: { type: 'json' } }, back: {} },
          { payload: { creation_options: options } },
        ),
      ),
    );
    provider.on('back', reply(offer()));
    actor.send({ type: 'action.run', name: 'webauthn_generate_creation_options' });
    await flush();
    await flush();
    expect(screen()).toBe('onboarding_create_passkey');
    expect(provider.calls.map((c) => c.action).slice(-2)).toEqual([
      'webauthn_generate_creation_options',
      'back',
    ]);
    expect(provider.calls.some((c) => c.action === 'webauthn_verify_attestation_response')).toBe(
      false,
    );
    return actor.getSnapshot().context.error;
  }

  /** What @simplewebauthn/browser throws: its WebAuthnError, named after the DOMException. */
  const webAuthnError = (name: string) =>
    Object.assign(new Error('ceremony failed', { cause: new DOMException('x', name) }), {
      name,
      code: 'X',
    });

  it('goes back and says the passkey already exists only for InvalidStateError', async () => {
    expect(await failedCreation(webAuthnError('InvalidStateError'))).toEqual({
      code: 'webauthn_credential_already_exists',
    });
  });

  it('goes back and says so when the person cancels creating a passkey or it times out', async () => {
    const said = { code: 'passkey_creation_cancelled' };
    expect(await failedCreation(webAuthnError('NotAllowedError'))).toEqual(said);
    expect(await failedCreation(webAuthnError('AbortError'))).toEqual(said);
  });

  it('goes back with a generic message when creating a passkey fails otherwise', async () => {
    expect(await failedCreation(webAuthnError('SecurityError'))).toEqual({
      code: 'passkey_creation_failed',
    });
    expect(await failedCreation(new TypeError('options'))).toEqual({
      code: 'passkey_creation_failed',
    });
  });

  it('sends the new passkey of a successful prompt as public_key', async () => {
    const provider = fakeProvider();
    provider.on(
      'register_client_capabilities',
      reply(
        state(
          'webauthn_credential_verification',
          { webauthn_verify_attestation_response: { public_key: { type: 'json' } }, back: {} },
          { payload: { creation_options: options } },
        ),
      ),
    );
    provider.passkeyResolves({ id: 'new-key' });
    provider.on('webauthn_verify_attestation_response', reply(state('profile_init')));
    const { screen } = run(provider);
    await flush();
    await flush();
    await flush();
    expect(provider.passkeyPrompts).toEqual([{ kind: 'create', options }]);
    expect(provider.calls.at(-1)).toMatchObject({
      action: 'webauthn_verify_attestation_response',
      inputs: { public_key: { id: 'new-key' } },
    });
    expect(screen()).toBe('profile_init');
  });

  it('continues by itself when the MFA chooser offers a single method', async () => {
    const provider = fakeProvider();
    provider.on(
      'register_client_capabilities',
      reply(state('mfa_method_chooser', { continue_to_otp_secret_creation: {}, skip: {} })),
    );
    provider.on(
      'continue_to_otp_secret_creation',
      reply(
        state(
          'mfa_otp_secret_creation',
          { otp_code_verify: { otp_code: true } },
          { payload: { otp_secret: 'ABC', otp_image_source: 'data:image/png;base64,AA' } },
        ),
      ),
    );
    const { screen } = run(provider);
    await flush();
    await flush();
    await flush();
    expect(screen()).toBe('mfa_otp_secret_creation');
  });
});

describe('authFlowMachine: third-party sign-in', () => {
  const thirdparty = state(
    'thirdparty',
    { exchange_token: { token: { required: true, hidden: true } }, back: {} },
    { payload: { redirect_url: 'https://provider.example/auth' } },
  );

  it('saves the flow and goes to the provider', async () => {
    const provider = fakeProvider();
    const { actor } = await atLoginInit(
      provider,
      state('login_init', {
        thirdparty_oauth: {
          provider: { required: true, hidden: true },
          redirect_to: { required: true, hidden: true },
        },
      }),
    );
    provider.on('thirdparty_oauth', reply(thirdparty));
    actor.send({
      type: 'action.run',
      name: 'thirdparty_oauth',
      inputs: { provider: 'google', redirect_to: 'http://app/login' },
    });
    await flush();
    await flush();
    expect(provider.redirects).toEqual(['https://provider.example/auth']);
  });

  it('exchanges a returned token with the restored flow', async () => {
    const provider = fakeProvider({ thirdPartyReturn: { saved: thirdparty, token: 'one-time' } });
    provider.on('exchange_token', reply(state('success')));
    const { screen } = run(provider);
    await flush();
    await flush();
    expect(provider.starts).toBe(0);
    expect(provider.calls).toEqual([
      { action: 'exchange_token', inputs: { token: 'one-time' }, csrfToken: thirdparty.csrf_token },
    ]);
    expect(screen()).toBe('success');
  });

  it('shows thirdPartyAccessDenied for access_denied and goes back', async () => {
    const provider = fakeProvider({
      thirdPartyReturn: { saved: thirdparty, error: 'access_denied' },
    });
    provider.on('back', reply(loginInitState()));
    const { actor, screen } = run(provider);
    await flush();
    await flush();
    expect(screen()).toBe('login_init');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'third_party_access_denied' });
  });

  it('shows somethingWentWrong with the description for another error', async () => {
    const provider = fakeProvider({
      thirdPartyReturn: {
        saved: thirdparty,
        error: 'server_error',
        errorDescription: 'Provider down',
      },
    });
    provider.on('back', reply(loginInitState()));
    const { actor } = run(provider);
    await flush();
    await flush();
    expect(actor.getSnapshot().context.error).toEqual({
      code: 'third_party_error',
      description: 'Provider down',
    });
  });
});

describe('authFlowMachine: app events', () => {
  it('restarts a login flow when the session ends elsewhere', async () => {
    const provider = fakeProvider();
    provider.on('register_client_capabilities', reply(loginInitState()), reply(loginInitState()));
    run(provider);
    await flush();
    await flush();
    provider.appEvent('auth.sessionEnded');
    await flush();
    expect(provider.starts).toBe(2);
  });
});

describe('support machines', () => {
  it('throttles each kind of auth event to once a second', () => {
    const clock = new SimulatedClock();
    const actor = createActor(eventThrottleMachine, { clock }).start();
    const forwarded: string[] = [];
    actor.on('event.forwarded', ({ event }) => forwarded.push(event.type));
    const created = {
      type: 'session-created' as const,
      token: 't',
      userId: 'u',
      expiresInSeconds: null,
    };
    actor.send({ type: 'event.forward', event: created });
    actor.send({ type: 'event.forward', event: created });
    actor.send({ type: 'event.forward', event: { type: 'user-deleted' } });
    expect(forwarded).toEqual(['session-created', 'user-deleted']);
    clock.increment(999);
    actor.send({ type: 'event.forward', event: created });
    expect(forwarded).toHaveLength(2);
    clock.increment(1);
    actor.send({ type: 'event.forward', event: created });
    expect(forwarded).toEqual(['session-created', 'user-deleted', 'session-created']);
  });

  it('closes the yes/no confirmation 1 s after the pointer leaves, unless it comes back', () => {
    const clock = new SimulatedClock();
    const actor = createActor(confirmMachine, { clock }).start();
    actor.send({ type: 'confirm.open' });
    actor.send({ type: 'pointer.leave' });
    clock.increment(900);
    actor.send({ type: 'pointer.enter' });
    clock.increment(5000);
    expect(actor.getSnapshot().hasTag('open')).toBe(true);
    actor.send({ type: 'pointer.leave' });
    clock.increment(999);
    expect(actor.getSnapshot().hasTag('open')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
  });

  it('confirms only with yes', () => {
    const actor = createActor(confirmMachine).start();
    let confirmed = 0;
    actor.on('confirmed', () => confirmed++);
    actor.send({ type: 'confirm.open' });
    actor.send({ type: 'confirm.no' });
    actor.send({ type: 'confirm.open' });
    actor.send({ type: 'confirm.yes' });
    expect(confirmed).toBe(1);
  });

  it('shows the copy confirmation for 1.5 s', async () => {
    const clock = new SimulatedClock();
    const copied: string[] = [];
    const actor = createActor(
      copyMachine.provide({
        actors: {
          copyText: fromPromise<void, { text: string }>(
            async ({ input }) => void copied.push(input.text),
          ),
        },
      }),
      { clock },
    ).start();
    actor.send({ type: 'copy', text: 'JBSWY3DPEHPK3PXP' });
    await flush();
    expect(copied).toEqual(['JBSWY3DPEHPK3PXP']);
    expect(actor.getSnapshot().hasTag('copied')).toBe(true);
    clock.increment(1499);
    expect(actor.getSnapshot().hasTag('copied')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().hasTag('copied')).toBe(false);
  });
});
