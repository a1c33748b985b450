import { useTranslation } from 'react-i18next';
import { useFlow } from '../flowContext';
import { ActionButton, ActionForm, BackAndSkip, Field, Screen, SecondaryLinks } from '../parts';
import {
  NewPasswordForm,
  RememberMe,
  RetryCountdown,
  SwitchFlow,
  ThirdPartyButtons,
} from './common';

/** The login screens up to the first factor: identifier, method, password, recovery. */

/** The identifier field of login_init: e-mail, username or either (protocol §3.6). */
function IdentifierFields() {
  const { t } = useTranslation('auth');
  const action = 'continue_with_login_identifier';
  return (
    <>
      <Field
        action={action}
        name="email"
        label={t('fields.email')}
        autoComplete="username webauthn"
      />
      <Field
        action={action}
        name="username"
        label={t('fields.username')}
        autoComplete="username webauthn"
      />
      <Field
        action={action}
        name="identifier"
        label={t('fields.identifier')}
        autoComplete="username webauthn"
        type="text"
      />
    </>
  );
}

export function LoginInit() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('login.title')}>
      <ActionForm action="continue_with_login_identifier" submitLabel={t('login.submit')}>
        <IdentifierFields />
      </ActionForm>
      <ActionButton action="webauthn_generate_request_options">{t('login.passkey')}</ActionButton>
      <ThirdPartyButtons />
      <RememberMe />
      <SwitchFlow to="registration" />
    </Screen>
  );
}

export function LoginMethodChooser() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('methodChooser.title')}>
      <div className="auth-choices">
        <ActionButton action="continue_to_passcode_confirmation" primary>
          {t('methodChooser.passcode')}
        </ActionButton>
        <ActionButton action="continue_to_password_login">
          {t('methodChooser.password')}
        </ActionButton>
        <ActionButton action="webauthn_generate_request_options">
          {t('methodChooser.passkey')}
        </ActionButton>
      </div>
      <BackAndSkip />
    </Screen>
  );
}

export function LoginPassword() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  return (
    <Screen title={t('password.title')}>
      <ActionForm
        action="password_login"
        submitLabel={t('password.submit')}
        disabled={flow.coolingDown && flow.context.retryAction === 'password_login'}
      >
        <Field
          action="password_login"
          name="password"
          label={t('fields.password')}
          autoComplete="current-password"
        />
      </ActionForm>
      <RetryCountdown />
      <SecondaryLinks
        links={[
          { action: 'continue_to_passcode_confirmation_recovery', label: t('password.forgot') },
          { action: 'continue_to_login_method_chooser', label: t('password.otherMethod') },
        ]}
      />
      <BackAndSkip />
    </Screen>
  );
}

export function LoginPasswordRecovery() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('recovery.title')}>
      <NewPasswordForm action="password_recovery" submitLabel={t('recovery.submit')} />
    </Screen>
  );
}
