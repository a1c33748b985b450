import { useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { RETURN_PARAMS } from '../../../machines/auth/actors';
import { useFlow } from '../flowContext';
import { fieldMessageKey } from '../messages';
import { RegistrationHref } from '../registration-link';
import { ActionForm, CodeInput, Field, usePasswordHint } from '../parts';

/** Pieces several sign-in screens share. */

export function Busy() {
  const { t } = useTranslation('auth');
  return (
    <p className="auth-busy" role="status" aria-live="polite">
      {t('loading')}
    </p>
  );
}

/** Third-party sign-in: one button per provider the server allows. */
export function ThirdPartyButtons() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const providers = flow.input('thirdparty_oauth', 'provider')?.allowed_values ?? [];
  if (!flow.offered('thirdparty_oauth') || providers.length === 0) return null;
  // Back to this page with its query (returnTo survives the trip), without old return params.
  const redirectTo = () => {
    const url = new URL(window.location.href);
    for (const p of RETURN_PARAMS) url.searchParams.delete(p);
    return `${url.origin}${url.pathname}${url.search}`;
  };
  return (
    <div className="auth-thirdparty">
      {providers.map((p) => (
        <button
          key={p.value}
          type="button"
          className="button"
          disabled={flow.busy}
          onClick={() =>
            flow.run('thirdparty_oauth', { provider: p.value, redirect_to: redirectTo() })
          }
        >
          {t('login.thirdParty', { provider: p.name })}
        </button>
      ))}
    </div>
  );
}

export function RememberMe() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  if (!flow.offered('remember_me')) return null;
  const value = flow.input('remember_me', 'remember_me')?.value === true;
  return (
    <label className="auth-checkbox">
      <input
        type="checkbox"
        defaultChecked={value}
        disabled={flow.busy}
        onChange={(event) => flow.run('remember_me', { remember_me: event.target.checked })}
      />{' '}
      {t('fields.rememberMe')}
    </label>
  );
}

export function SwitchFlow({ to }: { to: 'login' | 'registration' }) {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const registrationHref = useContext(RegistrationHref);
  if (flow.context.flowName === 'profile') return null;
  if (to === 'registration' && registrationHref) {
    return (
      <p className="auth-switch">
        {t('login.noAccount')} <Link href={registrationHref}>{t('login.toRegistration')}</Link>
      </p>
    );
  }
  return (
    <p className="auth-switch">
      {to === 'registration' ? t('login.noAccount') : t('registration.haveAccount')}{' '}
      <button
        type="button"
        className="button-link"
        onClick={() => flow.send({ type: 'flow.switch', flowName: to })}
      >
        {to === 'registration' ? t('login.toRegistration') : t('registration.toLogin')}
      </button>
    </p>
  );
}

/** The code boxes of a code action: cleared when passcode_invalid comes back. */
export function CodeEntry({ action, input }: { action: string; input: string }) {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  if (!flow.offered(action)) return null;
  const error = flow.fieldError(action, input);
  return (
    <CodeInput
      key={flow.context.codeResets}
      label={t('fields.code')}
      disabled={flow.busy || (flow.coolingDown && flow.context.retryAction === action)}
      error={error ? t(fieldMessageKey(action, input, error)) : undefined}
      onComplete={(code) => flow.run(action, { [input]: code })}
    />
  );
}

/** While a refused (429) action cools down: the seconds until it may be sent again. */
export function RetryCountdown() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  if (!flow.coolingDown) return null;
  return (
    <p className="auth-countdown" role="status">
      {t('password.retryIn', { count: flow.context.retrySeconds })}
    </p>
  );
}

/** The new-password form (recovery after login, creation at registration), with its length hint. */
export function NewPasswordForm({ action, submitLabel }: { action: string; submitLabel: string }) {
  const { t } = useTranslation('auth');
  const hint = usePasswordHint(action, 'new_password', 'flow');
  return (
    <ActionForm action={action} submitLabel={submitLabel}>
      <Field
        action={action}
        name="new_password"
        label={t('fields.newPassword')}
        autoComplete="new-password"
        hint={hint}
      />
    </ActionForm>
  );
}
