import { inputErrors } from './errors';
import type { ErrorBody, InputDef } from './types';

/** Hanko's e-mail pattern (protocol §2.3). */
export const EMAIL_PATTERN = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;

export interface ValidationResult {
  /** Normalised values (trimmed / lower-cased) of the declared inputs that were sent. */
  values: Record<string, unknown>;
  errors: Record<string, ErrorBody>;
}

const byteLength = (s: string) => Buffer.byteLength(s, 'utf8');

/** NUL or a lone surrogate: text PostgreSQL cannot store (nor a person type). */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when a string, or any key or string inside a JSON value, holds unstorable text. */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (typeof value !== 'object' || value === null) return false;
  // Deeper than any input we declare: refuse rather than walk it.
  if (depth > 32) return true;
  if (Array.isArray(value)) return value.some((v) => hasUnstorableText(v, depth + 1));
  return Object.entries(value).some(
    ([k, v]) => UNSTORABLE.test(k) || hasUnstorableText(v, depth + 1),
  );
}

/**
 * Validates `input_data` against the declared inputs. Undeclared keys are ignored. String
 * inputs only accept JSON strings (a number counts as missing, like Hanko); booleans must
 * be booleans and json inputs objects (Hanko skips both, quirk Q4).
 */
export function validateInputs(defs: InputDef[], raw: Record<string, unknown>): ValidationResult {
  const values: Record<string, unknown> = {};
  const errors: Record<string, ErrorBody> = {};
  for (const def of defs) {
    let value = Object.hasOwn(raw, def.name) ? raw[def.name] : undefined;
    if (hasUnstorableText(value)) {
      errors[def.name] = inputErrors.valueInvalid;
      continue;
    }
    if (def.type === 'boolean') {
      if (value === undefined || value === null) {
        if (def.required) errors[def.name] = inputErrors.valueMissing;
      } else if (typeof value !== 'boolean') {
        errors[def.name] = inputErrors.valueInvalid;
      } else values[def.name] = value;
      continue;
    }
    if (def.type === 'json') {
      if (value === null && def.nullable) values[def.name] = null;
      else if (value === undefined || value === null) {
        if (def.required) errors[def.name] = inputErrors.valueMissing;
      } else if (typeof value !== 'object') {
        errors[def.name] = inputErrors.valueInvalid;
      } else values[def.name] = value;
      continue;
    }
    if (typeof value !== 'string') value = undefined;
    if (typeof value === 'string') {
      if (def.trim) value = (value as string).trim();
      if (def.lowercase) value = (value as string).toLowerCase();
    }
    const text = value as string | undefined;
    if (text === undefined || text === '') {
      if (def.required) errors[def.name] = inputErrors.valueMissing;
      else if (text === '') values[def.name] = '';
      continue;
    }
    values[def.name] = text;
    if (def.minLength !== undefined && byteLength(text) < def.minLength) {
      errors[def.name] = inputErrors.valueTooShort;
    } else if (def.maxLength !== undefined && byteLength(text) > def.maxLength) {
      errors[def.name] = inputErrors.valueTooLong;
    } else if (def.type === 'email' && !EMAIL_PATTERN.test(text)) {
      errors[def.name] = inputErrors.valueInvalid;
    } else if (def.allowedValues && !def.allowedValues.some((a) => a.value === text)) {
      errors[def.name] = {
        code: inputErrors.valueInvalid.code,
        message: `The value is invalid. Must be one of: ${def.allowedValues.map((a) => a.value).join(',')}`,
      };
    }
  }
  return { values, errors };
}
