import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { clipboardCopyMachine } from '../../../machines/wiring/auth';
import { useFlow } from '../flowContext';
import { ActionButton, BackAndSkip, Screen } from '../parts';
import { CodeEntry } from './common';

/** Second-factor set-up and device trust. */

export function MfaMethodChooser() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('mfaChooser.title')}>
      <p>{t('mfaChooser.text')}</p>
      <div className="auth-choices">
        <ActionButton action="continue_to_otp_secret_creation" primary>
          {t('mfaChooser.app')}
        </ActionButton>
        <ActionButton action="continue_to_security_key_creation">
          {t('mfaChooser.securityKey')}
        </ActionButton>
      </div>
      <BackAndSkip />
    </Screen>
  );
}

function CopySecret({ secret }: { secret: string }) {
  const { t } = useTranslation('auth');
  const actor = useActorRef(clipboardCopyMachine);
  const copied = useSelector(actor, (s) => s.hasTag('copied'));
  const failed = useSelector(actor, (s) => s.hasTag('copyFailed'));
  return (
    <div className="auth-secret">
      <span>{t('otpSetup.secret')}: </span>
      <code data-testid="otp-secret">{secret}</code>{' '}
      <button
        type="button"
        className="button-link"
        onClick={() => actor.send({ type: 'copy', text: secret })}
      >
        {t('otpSetup.copy')}
      </button>
      <span role="status" aria-live="polite">
        {copied ? t('otpSetup.copied') : failed ? t('otpSetup.copyFailed') : ''}
      </span>
    </div>
  );
}

export function MfaOtpSecretCreation() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const { otp_image_source: image, otp_secret: secret } = flow.payload;
  return (
    <Screen title={t('otpSetup.title')}>
      <p>{t('otpSetup.text')}</p>
      {image ? <img src={image} alt={t('otpSetup.qr')} width={200} height={200} /> : null}
      {secret ? <CopySecret secret={secret} /> : null}
      <CodeEntry action="otp_code_verify" input="otp_code" />
      <BackAndSkip />
    </Screen>
  );
}

export function MfaSecurityKeyCreation() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('securityKeySetup.title')}>
      <p>{t('securityKeySetup.text')}</p>
      <ActionButton action="webauthn_generate_creation_options" primary>
        {t('securityKeySetup.submit')}
      </ActionButton>
      <BackAndSkip />
    </Screen>
  );
}

export function DeviceTrust() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('deviceTrust.title')}>
      <p>{t('deviceTrust.text')}</p>
      <ActionButton action="trust_device" primary>
        {t('deviceTrust.trust')}
      </ActionButton>
      <BackAndSkip />
    </Screen>
  );
}
