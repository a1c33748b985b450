import type { ComponentType } from 'react';
import { AuthFlowActor, selectScreen } from '../flowContext';
import { LoginInit, LoginMethodChooser, LoginPassword, LoginPasswordRecovery } from './login';
import {
  MfaMethodChooser,
  MfaOtpSecretCreation,
  MfaSecurityKeyCreation,
  DeviceTrust,
} from './mfa-setup';
import {
  AccountDeleted,
  ErrorScreen,
  LazyProfile,
  Preflight,
  Success,
  ThirdParty,
} from './outcome';
import {
  CredentialOnboardingChooser,
  OnboardingCreatePasskey,
  OnboardingEmail,
  OnboardingUsername,
  PasswordCreation,
  RegistrationInit,
  VerifyPasskey,
} from './registration';
import { LoginOtp, LoginPasskey, LoginSecurityKey, PasscodeConfirmation } from './verification';
// The widget's look comes with its screens, not with one page that shows them: every route
// that renders a flow (/login, the sign-up's account step, /activate, /profile, the client
// sign-in) gets it, also when it is the first page a fresh browser opens.
import '../auth.css';

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
