import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createI18n } from '../../src/i18n';
import { authFlowMachine } from '../../src/machines/auth/flow.machine';
import type { FlowName } from '../../src/machines/auth/types';
import {
  credentialDisplayName,
  identifierKind,
  isEmail,
  passwordHintBounds,
  validateAction,
  validateCredentialName,
} from '../../src/machines/auth/validation';
import { AuthFlowActor } from '../../src/views/auth/flowContext';
import { loginReturnTo as safeReturnTo } from '../../src/views/auth/LoginPage';
import { CodeInput } from '../../src/views/auth/parts';
import { FlowScreen } from '../../src/views/auth/screens';
import { readLocales } from '../support/locales';
import { fakeProvider, flush, loginInitState, reply, state } from './auth-widget.fixtures';

let i18n: I18n;
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

describe("widget validation, by the specification's validation rules", () => {
  it('takes an e-mail address only when it matches the pattern and is not all digits', () => {
    expect(isEmail('anna@example.org')).toBe(true);
    expect(isEmail('anna@example')).toBe(false);
    expect(isEmail('12345')).toBe(false);
    expect(identifierKind('anna@example.org')).toBe('email');
    expect(identifierKind('anna_1')).toBe('username');
  });

  it('allows letters, digits and underscores in usernames, and honours server lengths', () => {
    const action = {
      action: 'username_create',
      href: '/x',
      inputs: {
        username: {
          name: 'username',
          type: 'string' as const,
          required: true,
          min_length: 3,
          max_length: 8,
        },
      },
    };
    expect(validateAction(action, { username: 'anna_1' })).toEqual({});
    expect(validateAction(action, { username: 'anna-1' })).toEqual({
      username: 'invalid_username_error',
    });
    expect(validateAction(action, { username: 'an' })).toEqual({
      username: 'value_too_short_error',
    });
    expect(validateAction(action, { username: 'anna_12345' })).toEqual({
      username: 'value_too_long_error',
    });
    expect(validateAction(action, { username: '' })).toEqual({ username: 'value_missing_error' });
  });

  it('makes e-mail and username both optional at registration, but needs one of them', () => {
    const action = {
      action: 'register_login_identifier',
      href: '/x',
      inputs: {
        email: { name: 'email', type: 'email' as const, required: true },
        username: { name: 'username', type: 'string' as const, required: true },
      },
    };
    expect(validateAction(action, { email: '', username: 'anna' })).toEqual({});
    expect(validateAction(action, { email: 'anna@example.org', username: '' })).toEqual({});
    expect(validateAction(action, { email: '', username: '' })).toEqual({
      email: 'value_missing_error',
      username: 'value_missing_error',
    });
  });

  it('shows 72 as the maximum password length in flows and the server maximum in the profile', () => {
    const input = { name: 'password', type: 'password' as const, min_length: 10, max_length: 64 };
    expect(passwordHintBounds(input, 'flow')).toEqual({ minLength: 10, maxLength: 72 });
    expect(passwordHintBounds(input, 'profile')).toEqual({ minLength: 10, maxLength: 64 });
    expect(i18n.t('auth:fields.passwordHint', passwordHintBounds(input, 'flow'))).toBe(
      'Muss zwischen 10 und 72 Zeichen lang sein.',
    );
  });

  it('names passkeys 3 to 32 characters long, and names unnamed ones from the public key', () => {
    expect(validateCredentialName('ab')).toBe('value_too_short_error');
    expect(validateCredentialName('a'.repeat(33))).toBe('value_too_long_error');
    expect(validateCredentialName('Laptop')).toBeNull();
    expect(credentialDisplayName({ public_key: 'pQECAyYgASFYIK-_x9z/Q1w2e3r' }, 'passkey')).toBe(
      'Passkey-Q1w2e3r',
    );
    expect(credentialDisplayName({ public_key: 'abc', name: 'Büro' }, 'security_key')).toBe('Büro');
  });

  it('sends people after login only to paths of this site', () => {
    expect(safeReturnTo('?returnTo=%2Fclients%3Fpage%3D2')).toBe('/clients?page=2');
    expect(safeReturnTo('?returnTo=https%3A%2F%2Fevil.example')).toBe('/');
    expect(safeReturnTo('?returnTo=%2F%2Fevil.example')).toBe('/');
    // Browsers read a backslash after the first slash as a second slash: another host.
    expect(safeReturnTo('?returnTo=%2F%5Cevil.example')).toBe('/');
    expect(safeReturnTo('')).toBe('/');
  });
});

describe('CodeInput', () => {
  const renderCode = (onComplete: (code: string) => void) =>
    render(
      <I18nextProvider i18n={i18n}>
        <CodeInput label="Code" onComplete={onComplete} />
      </I18nextProvider>,
    );
  const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];

  it('submits by itself once all six digits are typed', async () => {
    const onComplete = vi.fn();
    renderCode(onComplete);
    const user = userEvent.setup();
    await user.click(boxes()[0]!);
    await user.keyboard('12345');
    expect(onComplete).not.toHaveBeenCalled();
    await user.keyboard('6');
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(onComplete).toHaveBeenCalledWith('123456');
    expect(
      boxes()
        .map((b) => b.value)
        .join(''),
    ).toBe('123456');
  });

  it('fills a pasted code from the box that has the focus', async () => {
    const onComplete = vi.fn();
    renderCode(onComplete);
    const user = userEvent.setup();
    await user.click(boxes()[0]!);
    await user.keyboard('98');
    await user.click(boxes()[2]!);
    await user.paste('1 2-3456');
    expect(boxes().map((b) => b.value)).toEqual(['9', '8', '1', '2', '3', '4']);
    expect(onComplete).toHaveBeenCalledWith('981234');
  });

  it('goes back a box with Backspace on an empty one', async () => {
    renderCode(() => {});
    const user = userEvent.setup();
    await user.click(boxes()[0]!);
    await user.keyboard('12');
    await user.keyboard('{Backspace}');
    expect(boxes().map((b) => b.value)).toEqual(['1', '', '', '', '', '']);
  });
});

function renderFlow(provider: ReturnType<typeof fakeProvider>, flowName: FlowName = 'login') {
  const clock = new SimulatedClock();
  render(
    <I18nextProvider i18n={i18n}>
      <AuthFlowActor.Provider
        logic={authFlowMachine.provide({ actors: provider.actors })}
        options={{ input: { flowName }, clock }}
      >
        <FlowScreen />
      </AuthFlowActor.Provider>
    </I18nextProvider>,
  );
  return { clock };
}

describe('flow screens', () => {
  it('clears the code boxes and says so in German on passcode_invalid', async () => {
    const provider = fakeProvider();
    const passcode = state('passcode_confirmation', {
      verify_passcode: { code: true },
      resend_passcode: {},
      back: {},
    });
    provider.on('register_client_capabilities', reply(passcode));
    provider.on(
      'verify_passcode',
      reply(
        state(
          'passcode_confirmation',
          {
            verify_passcode: {
              code: { required: true, error: { code: 'passcode_invalid', message: 'x' } },
            },
            resend_passcode: {},
            back: {},
          },
          {
            status: 400,
            error: { code: 'form_data_invalid_error', message: 'Form data invalid.' },
          },
        ),
      ),
    );
    renderFlow(provider);
    await screen.findByRole('heading', { name: 'Code eingeben' });
    const user = userEvent.setup();
    const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];
    await user.click(boxes()[0]!);
    await user.paste('111111');
    expect(await screen.findByText('Der eingegebene Code ist nicht korrekt.')).toBeTruthy();
    expect(
      boxes()
        .map((b) => b.value)
        .join(''),
    ).toBe('');
    expect(provider.calls.at(-1)).toMatchObject({
      action: 'verify_passcode',
      inputs: { code: '111111' },
    });
    // Not as a banner: form_data_invalid_error is shown at the field only.
    expect(screen.queryByText('Bitte prüfen Sie Ihre Eingaben.')).toBeNull();
  });

  it('shows an invalid e-mail at the field in German and sends nothing', async () => {
    const provider = fakeProvider();
    provider.on('register_client_capabilities', reply(loginInitState()));
    renderFlow(provider);
    await screen.findByRole('heading', { name: 'Anmelden' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-Mail-Adresse'), '4915112345678');
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(
      await screen.findByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.'),
    ).toBeTruthy();
    expect(screen.getByLabelText('E-Mail-Adresse').getAttribute('aria-invalid')).toBe('true');
    expect(provider.calls.map((c) => c.action)).toEqual(['register_client_capabilities']);
  });

  it('says in German that the passkey prompt was cancelled and shows the other ways to sign in', async () => {
    const provider = fakeProvider();
    const init = () =>
      state('login_init', {
        continue_with_login_identifier: { email: { type: 'email', required: true } },
        webauthn_generate_request_options: {},
      });
    provider.on('register_client_capabilities', reply(init()));
    provider.on(
      'webauthn_generate_request_options',
      reply(
        state(
          'login_passkey',
          {
            webauthn_verify_assertion_response: { assertion_response: { type: 'json' } },
            back: {},
          },
          { payload: { request_options: { publicKey: { challenge: 'c' } } } },
        ),
      ),
    );
    provider.on('back', reply(init()));
    provider.passkeyFails('NotAllowedError');
    renderFlow(provider);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mit Passkey anmelden' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/Anmeldung mit Passkey wurde abgebrochen/);
    expect(alert.textContent).toMatch(/auf einem anderen Weg an/);
    expect(screen.getByRole('heading', { name: 'Anmelden' })).toBeTruthy();
    expect(screen.getByLabelText('E-Mail-Adresse')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Mit Passkey anmelden' })).toBeTruthy();
  });

  it('disables "Anmelden" and counts the seconds down after 429', async () => {
    const provider = fakeProvider();
    const password = (extra = {}) =>
      state(
        'login_password',
        { password_login: { password: { type: 'password', required: true } }, back: {} },
        extra,
      );
    provider.on('register_client_capabilities', reply(password()));
    provider.on(
      'password_login',
      reply(
        password({
          status: 429,
          payload: { retry_after: 2 },
          error: { code: 'rate_limit_exceeded', message: 'x' },
        }),
      ),
    );
    const { clock } = renderFlow(provider);
    await screen.findByRole('heading', { name: 'Passwort eingeben' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Passwort'), 'falsch-falsch');
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText('Bitte warten Sie noch 2 Sekunden.')).toBeTruthy();
    expect(screen.getByText(/zu viele Anfragen/)).toBeTruthy();
    const submit = screen.getByRole('button', { name: 'Anmelden' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await act(async () => {
      clock.increment(1000);
      await flush();
    });
    expect(screen.getByText('Bitte warten Sie noch 1 Sekunde.')).toBeTruthy();
    await act(async () => {
      clock.increment(1000);
      await flush();
    });
    expect(screen.queryByText(/Bitte warten Sie noch/)).toBeNull();
    expect((screen.getByRole('button', { name: 'Anmelden' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('shows the error screen for /profile without a session, whose Weiter tries again', async () => {
    const provider = fakeProvider({ session: false });
    renderFlow(provider, 'profile');
    expect(
      await screen.findByText('Bitte melden Sie sich an, um Ihr Profil zu sehen.'),
    ).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(
      await screen.findByText('Bitte melden Sie sich an, um Ihr Profil zu sehen.'),
    ).toBeTruthy();
    expect(provider.starts).toBe(0);
  });

  it('shows only the profile sections the server offers, and asks before deleting', async () => {
    const provider = fakeProvider();
    const profile = state(
      'profile_init',
      {
        email_create: { email: { type: 'email', required: true } },
        session_delete: {
          session_id: {
            required: true,
            hidden: true,
            allowed_values: [{ value: 's2', name: 'Firefox' }],
          },
        },
      },
      {
        payload: {
          user: {
            id: 'u',
            user_id: 'u',
            emails: [
              { id: 'e1', address: 'anna@example.org', is_primary: true, is_verified: true },
              {
                id: 'e2',
                address: 'anna@gmail.example',
                is_primary: false,
                is_verified: true,
                identities: [{ id: 'g-1', provider: 'google', identity_id: 'i1' }],
              },
            ],
            mfa_config: {
              auth_app_set_up: false,
              totp_enabled: false,
              security_keys_enabled: false,
            },
            created_at: '2025-03-30T10:00:00Z',
            updated_at: '2025-03-30T10:00:00Z',
          },
          sessions: [
            {
              id: 's1',
              current: true,
              user_agent: 'Chromium',
              created_at: '2025-03-30T10:00:00Z',
              last_used: '2025-03-30T10:00:00Z',
            },
            {
              id: 's2',
              current: false,
              user_agent: 'Firefox',
              created_at: '2025-03-29T10:00:00Z',
              last_used: '2025-03-29T10:00:00Z',
            },
          ],
        } as never,
      },
    );
    provider.on('register_client_capabilities', reply(profile));
    provider.on('session_delete', reply(profile));
    renderFlow(provider, 'profile');
    await screen.findByRole('heading', { name: 'Profil' });
    expect(screen.getByRole('heading', { name: 'E-Mail-Adressen' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Sitzungen' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Passwort' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Konto löschen' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Passkeys' })).toBeNull();
    // Where each address came from: the own sign-up, or a third-party provider.
    const emailsSection = screen
      .getByRole('heading', { name: 'E-Mail-Adressen' })
      .closest('section')!;
    const [own, viaGoogle] = within(emailsSection).getAllByRole('listitem');
    expect(own!.textContent).toContain('Über Passwort oder Einmalcode');
    expect(viaGoogle!.textContent).toContain('Über Google');
    expect(viaGoogle!.textContent).not.toContain('Einmalcode');

    const sessions = screen.getByRole('heading', { name: 'Sitzungen' }).closest('section')!;
    // Only the other session can be ended, and only after "Ja".
    const signOut = within(sessions).getAllByRole('button', { name: 'Abmelden' });
    expect(signOut).toHaveLength(1);
    const user = userEvent.setup();
    await user.click(signOut[0]!);
    await user.click(within(sessions).getByRole('button', { name: 'Nein' }));
    expect(provider.calls.map((c) => c.action)).not.toContain('session_delete');
    await user.click(within(sessions).getByRole('button', { name: 'Abmelden' }));
    await user.click(within(sessions).getByRole('button', { name: 'Ja' }));
    await waitFor(() =>
      expect(provider.calls.at(-1)).toMatchObject({
        action: 'session_delete',
        inputs: { session_id: 's2' },
      }),
    );
    expect(await screen.findByText('Gespeichert')).toBeTruthy();
  });
});
