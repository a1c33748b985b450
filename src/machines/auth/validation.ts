import type { FlowAction, FlowInput } from './types';

/**
 * The widget's own input rules (the specification's validation rules), applied before a step is
 * sent so that the person sees a German message at the field at once. The server checks again.
 */

/** The e-mail pattern the provider applies to `email` inputs (protocol §2.3). */
export const EMAIL_PATTERN = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;
/** Usernames: letters, digits and underscores only. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
const ALL_DIGITS = /^\d+$/;

/** Passcodes and app codes have six digits (the specification's constants and limits). */
export const CODE_LENGTH = 6;
/**
 * bcrypt's limit, the maximum shown in the password hint of flows (the specification's constants
 * and limits).
 */
export const FLOW_PASSWORD_MAX_LENGTH = 72;
/** Passkey and security-key names (the specification's constants and limits). */
export const CREDENTIAL_NAME_MIN_LENGTH = 3;
export const CREDENTIAL_NAME_MAX_LENGTH = 32;

/** An e-mail address: the pattern, and not all digits. */
export const isEmail = (value: string): boolean =>
  EMAIL_PATTERN.test(value) && !ALL_DIGITS.test(value);

export const isUsername = (value: string): boolean => USERNAME_PATTERN.test(value);

/** An identifier is an e-mail when it matches the e-mail pattern, otherwise a username. */
export const identifierKind = (value: string): 'email' | 'username' =>
  isEmail(value.trim()) ? 'email' : 'username';

/** The codes the widget reports for a field (translated like the server's input errors). */
export type FieldErrorCode =
  | 'value_missing_error'
  | 'value_too_short_error'
  | 'value_too_long_error'
  | 'value_invalid_error'
  | 'invalid_username_error';

const byteLength = (value: string) => new TextEncoder().encode(value).length;

/** Checks one text value against a server-supplied input and the widget's rules for it. */
export function validateValue(
  input: FlowInput,
  raw: unknown,
  options: { optional?: boolean } = {},
): FieldErrorCode | null {
  if (input.type === 'json' || input.type === 'boolean' || input.hidden) return null;
  const value = typeof raw === 'string' ? raw.trim() : raw == null ? '' : String(raw);
  const required = input.required === true && !options.optional;
  if (value === '') return required ? 'value_missing_error' : null;
  if (input.min_length !== undefined && [...value].length < input.min_length) {
    return 'value_too_short_error';
  }
  if (input.max_length !== undefined && byteLength(value) > input.max_length) {
    return 'value_too_long_error';
  }
  if (input.type === 'email' || input.name === 'email') {
    return isEmail(value) ? null : 'value_invalid_error';
  }
  if (input.name === 'username') return isUsername(value) ? null : 'invalid_username_error';
  if (input.name === 'identifier') {
    return identifierKind(value) === 'email' || isUsername(value) ? null : 'invalid_username_error';
  }
  return null;
}

/**
 * Field errors for running `action` with `values`, by input name; empty when it may be sent.
 * When registration offers both e-mail and username, each is optional but one is needed.
 */
export function validateAction(
  action: FlowAction,
  values: Record<string, unknown>,
): Record<string, FieldErrorCode> {
  const errors: Record<string, FieldErrorCode> = {};
  const inputs = action.inputs;
  const eitherOr =
    action.action === 'register_login_identifier' && 'email' in inputs && 'username' in inputs;
  for (const [name, input] of Object.entries(inputs)) {
    const error = validateValue(input, values[name], { optional: eitherOr });
    if (error) errors[name] = error;
  }
  if (eitherOr && !errors.email && !errors.username) {
    const empty = (v: unknown) => typeof v !== 'string' || v.trim() === '';
    if (empty(values.email) && empty(values.username)) {
      errors.email = 'value_missing_error';
      errors.username = 'value_missing_error';
    }
  }
  return errors;
}

/** A passkey's or security key's new name: required, 3 to 32 characters. */
export function validateCredentialName(name: string): FieldErrorCode | null {
  const value = name.trim();
  if (value === '') return 'value_missing_error';
  if ([...value].length < CREDENTIAL_NAME_MIN_LENGTH) return 'value_too_short_error';
  if ([...value].length > CREDENTIAL_NAME_MAX_LENGTH) return 'value_too_long_error';
  return null;
}

/**
 * The numbers of the password hint "Muss zwischen {min} und {max} Zeichen lang sein": in
 * flows the maximum shown is 72, in the profile it comes from the server.
 */
export function passwordHintBounds(
  input: FlowInput | undefined,
  context: 'flow' | 'profile',
): { minLength: number; maxLength: number } {
  const minLength = input?.min_length ?? 8;
  const maxLength =
    context === 'flow' ? FLOW_PASSWORD_MAX_LENGTH : (input?.max_length ?? FLOW_PASSWORD_MAX_LENGTH);
  return { minLength, maxLength };
}

/**
 * The display name of a credential without a name: "Passkey" or "SecurityKey" plus the last
 * 7 alphanumeric characters of its public key (the specification's entities).
 */
export function credentialDisplayName(
  credential: { name?: string | undefined; public_key: string },
  kind: 'passkey' | 'security_key',
): string {
  if (credential.name) return credential.name;
  const tail = credential.public_key.replace(/[^A-Za-z0-9]/g, '').slice(-7);
  return `${kind === 'passkey' ? 'Passkey' : 'SecurityKey'}-${tail}`;
}
