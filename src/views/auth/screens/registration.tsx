import { useTranslation } from 'react-i18next';
import { useFlow } from '../flowContext';
import { ActionButton, ActionForm, BackAndSkip, Field, Screen } from '../parts';
import { NewPasswordForm, RememberMe, SwitchFlow, ThirdPartyButtons } from './common';

/** Registration and onboarding: identifier, password or passkey, missing e-mail or username. */

export function RegistrationInit() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const action = 'register_login_identifier';
  // Both offered: both optional, one of them is needed (the specification's validation rules).
  const both = Boolean(flow.input(action, 'email') && flow.input(action, 'username'));
  return (
    <Screen title={t('registration.title')}>
      {flow.offered(action) ? null : (
        <p className="auth-error" role="alert">
          {t('errors.signupDisabled')}
        </p>
      )}
      <ActionForm action={action} submitLabel={t('registration.submit')}>
        <Field
          action={action}
          name="email"
          label={t('fields.email')}
          autoComplete="email"
          optional={both}
        />
        <Field
          action={action}
          name="username"
          label={t('fields.username')}
          autoComplete="username"
          hint={t('fields.usernameHint')}
          optional={both}
        />
      </ActionForm>
      <ThirdPartyButtons />
      <RememberMe />
      <SwitchFlow to="login" />
    </Screen>
  );
}

export function PasswordCreation() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('passwordCreation.title')}>
      <NewPasswordForm action="register_password" submitLabel={t('passwordCreation.submit')} />
      <BackAndSkip />
    </Screen>
  );
}

export function OnboardingEmail() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('onboardingEmail.title')}>
      <ActionForm action="email_address_set" submitLabel={t('onboardingEmail.submit')}>
        <Field
          action="email_address_set"
          name="email"
          label={t('fields.email')}
          autoComplete="email"
        />
      </ActionForm>
      <BackAndSkip />
    </Screen>
  );
}

export function OnboardingUsername() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('onboardingUsername.title')}>
      <ActionForm action="username_create" submitLabel={t('onboardingUsername.submit')}>
        <Field
          action="username_create"
          name="username"
          label={t('fields.username')}
          autoComplete="username"
          hint={t('fields.usernameHint')}
        />
      </ActionForm>
      <BackAndSkip />
    </Screen>
  );
}

export function CredentialOnboardingChooser() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('credentialChooser.title')}>
      <div className="auth-choices">
        <ActionButton action="continue_to_passkey_registration" primary>
          {t('credentialChooser.passkey')}
        </ActionButton>
        <ActionButton action="continue_to_password_registration">
          {t('credentialChooser.password')}
        </ActionButton>
      </div>
      <BackAndSkip />
    </Screen>
  );
}

export function OnboardingCreatePasskey() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('createPasskey.title')}>
      <p>{t('createPasskey.text')}</p>
      <ActionButton action="webauthn_generate_creation_options" primary>
        {t('createPasskey.submit')}
      </ActionButton>
      <BackAndSkip />
    </Screen>
  );
}

export function VerifyPasskey() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('verifyPasskey.title')}>
      <p>{t('verifyPasskey.text')}</p>
      <BackAndSkip />
    </Screen>
  );
}
