import { useTranslation } from 'react-i18next';
import { useFlow } from '../flowContext';
import { ActionButton, BackAndSkip, Screen, SecondaryLinks } from '../parts';
import { CodeEntry, RetryCountdown } from './common';

/** The screens that check a factor: e-mailed passcode, authenticator app, security key, passkey. */

export function PasscodeConfirmation() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const resendSeconds = flow.context.resendSeconds;
  return (
    <Screen title={t('passcode.title')}>
      <p>{t('passcode.text')}</p>
      <CodeEntry action="verify_passcode" input="code" />
      <RetryCountdown />
      <SecondaryLinks
        links={[
          {
            action: 'resend_passcode',
            label: flow.resendWaiting
              ? t('passcode.resendIn', { count: resendSeconds })
              : t('passcode.resend'),
            disabled: flow.resendWaiting,
          },
        ]}
      />
      <BackAndSkip />
    </Screen>
  );
}

export function LoginOtp() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('otp.title')}>
      <p>{t('otp.text')}</p>
      <CodeEntry action="otp_code_validate" input="otp_code" />
      <SecondaryLinks
        links={[{ action: 'continue_to_login_security_key', label: t('otp.useSecurityKey') }]}
      />
      <BackAndSkip />
    </Screen>
  );
}

export function LoginSecurityKey() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('securityKey.title')}>
      <p>{t('securityKey.text')}</p>
      <ActionButton action="webauthn_generate_request_options" primary>
        {t('securityKey.use')}
      </ActionButton>
      <SecondaryLinks
        links={[{ action: 'continue_to_login_otp', label: t('securityKey.useApp') }]}
      />
    </Screen>
  );
}

export function LoginPasskey() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('passkey.title')}>
      <p>{t('passkey.text')}</p>
      <BackAndSkip />
    </Screen>
  );
}
