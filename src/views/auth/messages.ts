import { tKey } from '../../i18n/keys';

/** German messages for flow and input error codes (the specification's error catalogue). */
const MESSAGES: Record<string, string> = {
  technical_error: tKey('auth:errors.somethingWentWrong'),
  network_error: tKey('auth:errors.somethingWentWrong'),
  third_party_error: tKey('auth:errors.somethingWentWrong'),
  request_timeout: tKey('auth:errors.requestTimeout'),
  flow_expired_error: tKey('auth:errors.flowExpired'),
  operation_not_permitted_error: tKey('auth:errors.operationNotPermitted'),
  flow_discontinuity_error: tKey('auth:errors.flowDiscontinuity'),
  form_data_invalid_error: tKey('auth:errors.formDataInvalid'),
  not_found: tKey('auth:errors.notFound'),
  passcode_max_attempts_reached: tKey('auth:errors.passcodeAttemptsReached'),
  passkey_invalid: tKey('auth:errors.passkeyInvalid'),
  webauthn_credential_invalid_mfa_only: tKey('auth:errors.webauthnCredentialInvalidMfaOnly'),
  platform_authenticator_required: tKey('auth:errors.platformAuthenticatorRequired'),
  rate_limit_exceeded: tKey('auth:errors.tooManyRequests'),
  unauthorized: tKey('auth:errors.unauthorized'),
  session_missing: tKey('auth:errors.sessionMissing'),
  forbidden: tKey('auth:errors.forbidden'),
  handler_not_found: tKey('auth:errors.handlerNotFound'),
  webauthn_credential_already_exists: tKey('auth:errors.webauthnCredentialAlreadyExists'),
  passkey_creation_failed: tKey('auth:errors.passkeyCreationFailed'),
  passkey_creation_cancelled: tKey('auth:errors.passkeyCreationCancelled'),
  passkey_cancelled: tKey('auth:errors.passkeyCancelled'),
  third_party_access_denied: tKey('auth:errors.thirdPartyAccessDenied'),
  third_party_unverified_email: tKey('auth:errors.thirdPartyUnverifiedEmail'),
  value_missing_error: tKey('auth:errors.valueMissing'),
  value_invalid_error: tKey('auth:errors.valueInvalid'),
  value_too_long_error: tKey('auth:errors.valueTooLong'),
  value_too_short_error: tKey('auth:errors.valueTooShort'),
  email_already_exists: tKey('auth:errors.emailAddressAlreadyExistsError'),
  username_already_exists: tKey('auth:errors.usernameAlreadyExists'),
  unknown_username_error: tKey('auth:errors.unknownUsername'),
  unknown_email_error: tKey('auth:errors.unknownEmail'),
  invalid_username_error: tKey('auth:errors.invalidUsername'),
  passcode_invalid: tKey('auth:errors.invalidPasscode'),
  otp_code_invalid: tKey('auth:errors.invalidOtpCode'),
  otp_code_already_used: tKey('auth:errors.otpCodeAlreadyUsed'),
  invalid_metadata_error: tKey('auth:errors.somethingWentWrong'),
  confirmation_required: tKey('auth:errors.confirmationRequired'),
};

/** Field-specific wording where the generic one would say too little. */
const FIELD_MESSAGES: Record<string, string> = {
  'password_login.password.value_invalid_error': tKey('auth:errors.invalidPassword'),
  'email.value_invalid_error': tKey('auth:errors.emailInvalid'),
  'identifier.value_invalid_error': tKey('auth:errors.emailInvalid'),
  // Hanko reports a wrong app code at set-up as passcode_invalid (protocol Q2).
  'otp_code_verify.otp_code.passcode_invalid': tKey('auth:errors.invalidOtpCode'),
  'passkey_name.value_too_short_error': tKey('auth:errors.passkeyNameLength'),
  'passkey_name.value_too_long_error': tKey('auth:errors.passkeyNameLength'),
};

export function messageKey(code: string): string {
  return MESSAGES[code] ?? tKey('auth:errors.somethingWentWrong');
}

export function fieldMessageKey(action: string, input: string, code: string): string {
  return (
    FIELD_MESSAGES[`${action}.${input}.${code}`] ??
    FIELD_MESSAGES[`${input}.${code}`] ??
    messageKey(code)
  );
}
