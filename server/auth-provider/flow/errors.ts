import type { ErrorBody, FlowErrorDef } from './types';

/** Flow-level errors (protocol §4.1). */
export const flowErrors = {
  technical: { status: 500, code: 'technical_error', message: 'Something went wrong.' },
  unavailable: {
    status: 503,
    code: 'technical_error',
    message: 'The service is unavailable; try again shortly.',
  },
  flowExpired: { status: 410, code: 'flow_expired_error', message: 'The flow has expired.' },
  operationNotPermitted: {
    status: 403,
    code: 'operation_not_permitted_error',
    message: 'The operation is not permitted.',
  },
  flowDiscontinuity: {
    status: 500,
    code: 'flow_discontinuity_error',
    message: "The flow can't be continued.",
  },
  formDataInvalid: { status: 400, code: 'form_data_invalid_error', message: 'Form data invalid.' },
  notFound: { status: 404, code: 'not_found', message: 'The requested resource was not found.' },
  passcodeMaxAttemptsReached: {
    status: 401,
    code: 'passcode_max_attempts_reached',
    message: 'The passcode was entered wrong too many times.',
  },
  rateLimitExceeded: {
    status: 429,
    code: 'rate_limit_exceeded',
    message: 'The rate limit has been exceeded.',
  },
  unauthorized: { status: 401, code: 'unauthorized', message: 'The session is invalid.' },
  passkeyInvalid: { status: 401, code: 'passkey_invalid', message: 'The passkey is invalid.' },
  webauthnCredentialInvalidMfaOnly: {
    status: 401,
    code: 'webauthn_credential_invalid_mfa_only',
    message: 'This credential can be used as a second factor security key only.',
  },
  platformAuthenticatorRequired: {
    status: 401,
    code: 'platform_authenticator_required',
    message: 'The device or browser does not support the required platform authenticators.',
  },
} satisfies Record<string, FlowErrorDef>;

/** Input-level errors (protocol §4.2); they come with form_data_invalid_error / 400. */
export const inputErrors = {
  valueMissing: { code: 'value_missing_error', message: 'The value is missing.' },
  valueInvalid: { code: 'value_invalid_error', message: 'The value is invalid.' },
  valueTooLong: { code: 'value_too_long_error', message: 'The value is too long.' },
  valueTooShort: { code: 'value_too_short_error', message: 'The value is too short.' },
  emailAlreadyExists: {
    code: 'email_already_exists',
    message: 'The email address already exists.',
  },
  usernameAlreadyExists: {
    code: 'username_already_exists',
    message: 'The username already exists.',
  },
  unknownEmail: { code: 'unknown_email_error', message: 'The email address is unknown.' },
  unknownUsername: { code: 'unknown_username_error', message: 'The username is unknown.' },
  invalidUsername: {
    code: 'invalid_username_error',
    message: 'The username is invalid. Only letters, digits and underscores are allowed.',
  },
  passcodeInvalid: { code: 'passcode_invalid', message: 'The passcode is invalid.' },
  otpCodeInvalid: { code: 'otp_code_invalid', message: 'The OTP code is invalid.' },
  otpCodeAlreadyUsed: {
    code: 'otp_code_already_used',
    message: 'The OTP code has already been used.',
  },
  invalidMetadata: { code: 'invalid_metadata_error', message: 'The metadata is invalid.' },
} satisfies Record<string, ErrorBody>;

/**
 * A request the flow cannot even read (protocol §1.3): a malformed `action`, a body that is
 * no JSON object, `input_data` that is no object. Hanko answers these with technical_error
 * (500); a caller's mistake is a 400 here, in the bare error shape, `cause` naming the field.
 */
export const malformedRequest = (field: string): FlowErrorDef => ({
  ...flowErrors.formDataInvalid,
  cause: `${field}: value_invalid_error`,
});

/** An input error on one input: the 400 form_data_invalid_error outcome. */
export function invalidInput(input: string, error: ErrorBody) {
  return {
    kind: 'error' as const,
    error: flowErrors.formDataInvalid,
    inputErrors: { [input]: error },
  };
}
