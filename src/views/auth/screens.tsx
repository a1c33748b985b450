import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { createCopyActors, RETURN_PARAMS } from '../../machines/auth/actors';
import { copyMachine } from '../../machines/auth/support.machines';
import { AuthFlowActor, selectScreen, useFlow } from './flowContext';
import { fieldMessageKey } from './messages';
import {
  ActionButton,
  ActionForm,
  BackAndSkip,
  CodeInput,
  ErrorBanner,
  Field,
  Screen,
  usePasswordHint,
} from './parts';

// Only the profile needs its screen; it loads on demand so /login stays light.
const ProfileScreen = lazy(() => import('./ProfileScreen'));

function Busy() {
  const { t } = useTranslation('auth');
  return (
    <p className="auth-busy" role="status" aria-live="polite">
      {t('loading')}
    </p>
  );
}

/** The identifier field of login_init: e-mail, username or either (protocol §3.6). */
function IdentifierFields() {
  const { t } = useTranslation('auth');
  const action = 'continue_with_login_identifier';
  return (
    <>
      <Field action={action} name="email" label={t('fields.email')} autoComplete="username webauthn" />
      <Field action={action} name="username" label={t('fields.username')} autoComplete="username webauthn" />
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

/** Third-party sign-in: one button per provider the server allows. */
function ThirdPartyButtons() {
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
          onClick={() => flow.run('thirdparty_oauth', { provider: p.value, redirect_to: redirectTo() })}
        >
          {t('login.thirdParty', { provider: p.name })}
        </button>
      ))}
    </div>
  );
}

function RememberMe() {
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

function SwitchFlow({ to }: { to: 'login' | 'registration' }) {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  if (flow.context.flowName === 'profile') return null;
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

function LoginInit() {
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

function LoginMethodChooser() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('methodChooser.title')}>
      <div className="auth-choices">
        <ActionButton action="continue_to_passcode_confirmation" primary>
          {t('methodChooser.passcode')}
        </ActionButton>
        <ActionButton action="continue_to_password_login">{t('methodChooser.password')}</ActionButton>
        <ActionButton action="webauthn_generate_request_options">{t('methodChooser.passkey')}</ActionButton>
      </div>
      <BackAndSkip />
    </Screen>
  );
}

function LoginPassword() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const seconds = flow.context.retrySeconds;
  return (
    <Screen title={t('password.title')}>
      <ActionForm
        action="password_login"
        submitLabel={t('password.submit')}
        disabled={flow.coolingDown && flow.context.retryAction === 'password_login'}
      >
        <Field action="password_login" name="password" label={t('fields.password')} autoComplete="current-password" />
      </ActionForm>
      {flow.coolingDown ? (
        <p className="auth-countdown" role="status">
          {t('password.retryIn', { count: seconds })}
        </p>
      ) : null}
      <div className="auth-secondary">
        <ActionButton action="continue_to_passcode_confirmation_recovery" link>
          {t('password.forgot')}
        </ActionButton>
        <ActionButton action="continue_to_login_method_chooser" link>
          {t('password.otherMethod')}
        </ActionButton>
      </div>
      <BackAndSkip />
    </Screen>
  );
}

function LoginPasswordRecovery() {
  const { t } = useTranslation('auth');
  const hint = usePasswordHint('password_recovery', 'new_password', 'flow');
  return (
    <Screen title={t('recovery.title')}>
      <ActionForm action="password_recovery" submitLabel={t('recovery.submit')}>
        <Field
          action="password_recovery"
          name="new_password"
          label={t('fields.newPassword')}
          autoComplete="new-password"
          hint={hint}
        />
      </ActionForm>
    </Screen>
  );
}

/** The code boxes of a code action: cleared when passcode_invalid comes back. */
function CodeEntry({ action, input }: { action: string; input: string }) {
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

function PasscodeConfirmation() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const resendSeconds = flow.context.resendSeconds;
  return (
    <Screen title={t('passcode.title')}>
      <p>{t('passcode.text')}</p>
      <CodeEntry action="verify_passcode" input="code" />
      {flow.coolingDown ? (
        <p className="auth-countdown" role="status">
          {t('password.retryIn', { count: flow.context.retrySeconds })}
        </p>
      ) : null}
      <div className="auth-secondary">
        <ActionButton action="resend_passcode" link disabled={flow.resendWaiting}>
          {flow.resendWaiting ? t('passcode.resendIn', { count: resendSeconds }) : t('passcode.resend')}
        </ActionButton>
      </div>
      <BackAndSkip />
    </Screen>
  );
}

function LoginOtp() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('otp.title')}>
      <p>{t('otp.text')}</p>
      <CodeEntry action="otp_code_validate" input="otp_code" />
      <div className="auth-secondary">
        <ActionButton action="continue_to_login_security_key" link>
          {t('otp.useSecurityKey')}
        </ActionButton>
      </div>
      <BackAndSkip />
    </Screen>
  );
}

function LoginSecurityKey() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('securityKey.title')}>
      <p>{t('securityKey.text')}</p>
      <ActionButton action="webauthn_generate_request_options" primary>
        {t('securityKey.use')}
      </ActionButton>
      <div className="auth-secondary">
        <ActionButton action="continue_to_login_otp" link>
          {t('securityKey.useApp')}
        </ActionButton>
      </div>
    </Screen>
  );
}

function LoginPasskey() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('passkey.title')}>
      <p>{t('passkey.text')}</p>
      <BackAndSkip />
    </Screen>
  );
}

function RegistrationInit() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const action = 'register_login_identifier';
  // Both offered: both optional, one of them is needed (specification section 5).
  const both = Boolean(flow.input(action, 'email') && flow.input(action, 'username'));
  return (
    <Screen title={t('registration.title')}>
      {flow.offered(action) ? null : (
        <p className="auth-error" role="alert">
          {t('errors.signupDisabled')}
        </p>
      )}
      <ActionForm action={action} submitLabel={t('registration.submit')}>
        <Field action={action} name="email" label={t('fields.email')} autoComplete="email" optional={both} />
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

function PasswordCreation() {
  const { t } = useTranslation('auth');
  const hint = usePasswordHint('register_password', 'new_password', 'flow');
  return (
    <Screen title={t('passwordCreation.title')}>
      <ActionForm action="register_password" submitLabel={t('passwordCreation.submit')}>
        <Field
          action="register_password"
          name="new_password"
          label={t('fields.newPassword')}
          autoComplete="new-password"
          hint={hint}
        />
      </ActionForm>
      <BackAndSkip />
    </Screen>
  );
}

function OnboardingEmail() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('onboardingEmail.title')}>
      <ActionForm action="email_address_set" submitLabel={t('onboardingEmail.submit')}>
        <Field action="email_address_set" name="email" label={t('fields.email')} autoComplete="email" />
      </ActionForm>
      <BackAndSkip />
    </Screen>
  );
}

function OnboardingUsername() {
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

function CredentialOnboardingChooser() {
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

function OnboardingCreatePasskey() {
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

function VerifyPasskey() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('verifyPasskey.title')}>
      <p>{t('verifyPasskey.text')}</p>
      <BackAndSkip />
    </Screen>
  );
}

function MfaMethodChooser() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('mfaChooser.title')}>
      <p>{t('mfaChooser.text')}</p>
      <div className="auth-choices">
        <ActionButton action="continue_to_otp_secret_creation" primary>
          {t('mfaChooser.app')}
        </ActionButton>
        <ActionButton action="continue_to_security_key_creation">{t('mfaChooser.securityKey')}</ActionButton>
      </div>
      <BackAndSkip />
    </Screen>
  );
}

function CopySecret({ secret }: { secret: string }) {
  const { t } = useTranslation('auth');
  const actor = useActorRef(copyMachine.provide({ actors: createCopyActors({}) }));
  const copied = useSelector(actor, (s) => s.hasTag('copied'));
  const failed = useSelector(actor, (s) => s.hasTag('copyFailed'));
  return (
    <div className="auth-secret">
      <span>{t('otpSetup.secret')}: </span>
      <code data-testid="otp-secret">{secret}</code>{' '}
      <button type="button" className="button-link" onClick={() => actor.send({ type: 'copy', text: secret })}>
        {t('otpSetup.copy')}
      </button>
      <span role="status" aria-live="polite">
        {copied ? t('otpSetup.copied') : failed ? t('otpSetup.copyFailed') : ''}
      </span>
    </div>
  );
}

function MfaOtpSecretCreation() {
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

function MfaSecurityKeyCreation() {
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

function DeviceTrust() {
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

function ThirdParty() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('thirdparty.title')}>
      <p>{t('thirdparty.text')}</p>
      <BackAndSkip />
    </Screen>
  );
}

function Preflight() {
  return (
    <section className="auth-screen">
      <ErrorBanner />
      <Busy />
    </section>
  );
}

function Success() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('success.title')}>
      <p role="status">{t('success.text')}</p>
    </Screen>
  );
}

function AccountDeleted() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('accountDeleted.title')}>
      <p role="status">{t('accountDeleted.text')}</p>
    </Screen>
  );
}

/** The error screen: the message and Continue, which restarts the flow. */
function ErrorScreen() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  return (
    <Screen title={t('errorScreen.title')}>
      {flow.context.error ? null : (
        <p role="alert">{t('errors.somethingWentWrong')}</p>
      )}
      <button type="button" className="button button-primary" onClick={() => flow.send({ type: 'flow.restart' })}>
        {t('errorScreen.continue')}
      </button>
    </Screen>
  );
}

function LazyProfile() {
  return (
    <Suspense fallback={<Busy />}>
      <ProfileScreen />
    </Suspense>
  );
}

/** One screen per machine state (server states mirror the protocol's names). */
export const SCREENS: Record<string, ComponentType> = {
  initializing: Preflight,
  restarting: Preflight,
  checkingSession: Preflight,
  starting: Preflight,
  failed: ErrorScreen,
  handlerNotFound: ErrorScreen,
  preflight: Preflight,
  login_init: LoginInit,
  passcode_confirmation: PasscodeConfirmation,
  login_otp: LoginOtp,
  login_passkey: LoginPasskey,
  login_password: LoginPassword,
  login_password_recovery: LoginPasswordRecovery,
  login_security_key: LoginSecurityKey,
  login_method_chooser: LoginMethodChooser,
  mfa_method_chooser: MfaMethodChooser,
  mfa_otp_secret_creation: MfaOtpSecretCreation,
  mfa_security_key_creation: MfaSecurityKeyCreation,
  registration_init: RegistrationInit,
  password_creation: PasswordCreation,
  onboarding_create_passkey: OnboardingCreatePasskey,
  onboarding_verify_passkey_attestation: VerifyPasskey,
  onboarding_email: OnboardingEmail,
  onboarding_username: OnboardingUsername,
  credential_onboarding_chooser: CredentialOnboardingChooser,
  webauthn_credential_verification: VerifyPasskey,
  thirdparty: ThirdParty,
  device_trust: DeviceTrust,
  profile_init: LazyProfile,
  error: ErrorScreen,
  success: Success,
  account_deleted: AccountDeleted,
};

/** Renders the screen of the machine's current state. */
export function FlowScreen() {
  const screen = AuthFlowActor.useSelector(selectScreen);
  const Component = SCREENS[screen] ?? ErrorScreen;
  return <Component />;
}
