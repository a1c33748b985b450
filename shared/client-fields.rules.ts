/**
 * The rules for a client's own fields, one set wherever they are written: the sign-up form
 * and its server check (src/forms/client-signup.validation.ts, server/features/client-signup),
 * the staff form (src/forms/client-staff-form.ts) and the staff API (server/features/clients). The contract says
 * what a schema can (lengths, characters); these say the rest (a German postal code has five
 * digits, a year of birth is plausible, a diagnosis date is not in the future). Plain
 * functions without zod, so the sign-up page's chunk stays small (bench/web.ts).
 */

/** The oldest age we accept; the year of birth may not lie in the future. */
export const MAX_AGE = 110;

const POSTAL_CODES: Record<string, RegExp> = {
  DE: /^\d{5}$/,
  AT: /^\d{4}$/,
  CH: /^\d{4}$/,
  LU: /^(L-?)?\d{4}$/i,
  BE: /^\d{4}$/,
  DK: /^\d{4}$/,
  NL: /^\d{4} ?[A-Z]{2}$/i,
  FR: /^\d{5}$/,
  PL: /^\d{2}-\d{3}$/,
  IT: /^\d{5}$/,
};

/** `+49 151 2345678`, `0151-2345678`, `030 / 123 45 67`, `(030) 1234567`, `+49 (0)30 1234567`. */
export function isPhoneNumber(value: string): boolean {
  const v = value.trim();
  if (!/^[+0-9 ()/-]+$/.test(v)) return false;
  if (!/^(\+|0|\(0)/.test(v)) return false;
  if (v.indexOf('+') > 0) return false;
  const digits = v.replace(/\D/g, '').length;
  return digits >= 6 && digits <= 15;
}

/** Comma-separated phone numbers; empty is fine. */
export const isPhoneList = (value: string): boolean =>
  value.trim() === '' || value.split(',').every((part) => isPhoneNumber(part));

export const isPostalCode = (country: string, value: string): boolean =>
  (POSTAL_CODES[country] ?? /^[A-Z0-9 -]{2,10}$/i).test(value.trim());

/**
 * The widget's e-mail rule (the specification's validation rules): an address, and not all digits.
 */
export const isEmail = (value: string): boolean =>
  value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && !/^\d+$/.test(value);

export const isPlausibleYearOfBirth = (year: number, currentYear: number): boolean =>
  Number.isInteger(year) && year <= currentYear && year >= currentYear - MAX_AGE;

/** Insurance numbers (Versichertennummer and private ones): letters and digits, 5–20. */
export const isInsurerCode = (value: string): boolean => /^[A-Z0-9]{5,20}$/i.test(value.trim());

/** A date (YYYY-MM-DD) that has happened: from 1900 up to today (Europe/Berlin). */
export const isPastDate = (value: string, today: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && value >= '1900-01-01' && value <= today;

/** Today in Europe/Berlin, YYYY-MM-DD. */
export const berlinToday = (now: Date): string =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Berlin',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);

/** The client fields these rules read; absent or null fields are not checked. */
export interface ClientFieldValues {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  yearOfBirth?: number | null;
  postalCode?: string | null;
  country?: string | null;
  telephone?: string | null;
  additionalTelephoneNumbers?: string | null;
  insurerCode?: string | null;
  initialDiagnosis?: string | null;
  contactPerson?: { email?: string | null; telephone?: string | null } | null;
}

/**
 * Error codes, shared by the API (`errors[].code`) and the staff form (German messages in
 * the `staff` namespace, `fieldErrors`).
 */
export type ClientFieldError =
  | 'value_missing'
  | 'invalid_email'
  | 'invalid_year'
  | 'invalid_postal_code'
  | 'invalid_phone'
  | 'invalid_insurer_code'
  | 'implausible_date';

/**
 * Checks the given fields; every broken rule as field → code (`contactPerson.email` for the
 * contact person's), in the order of the fields. The postal code is read with `country`
 * (DE when none is given).
 */
export function clientFieldErrors(
  v: ClientFieldValues,
  now: Date,
): Array<{ field: string; code: ClientFieldError }> {
  const errors: Array<{ field: string; code: ClientFieldError }> = [];
  const add = (field: string, code: ClientFieldError) => errors.push({ field, code });
  const given = (s: string | null | undefined): s is string =>
    typeof s === 'string' && s.trim() !== '';
  const today = berlinToday(now);
  const year = Number(today.slice(0, 4));
  if (typeof v.firstName === 'string' && !v.firstName.trim()) add('firstName', 'value_missing');
  if (typeof v.lastName === 'string' && !v.lastName.trim()) add('lastName', 'value_missing');
  if (given(v.email) && !isEmail(v.email.trim())) add('email', 'invalid_email');
  if (typeof v.yearOfBirth === 'number' && !isPlausibleYearOfBirth(v.yearOfBirth, year)) {
    add('yearOfBirth', 'invalid_year');
  }
  if (given(v.postalCode) && !isPostalCode(v.country || 'DE', v.postalCode)) {
    add('postalCode', 'invalid_postal_code');
  }
  if (given(v.telephone) && !isPhoneNumber(v.telephone)) add('telephone', 'invalid_phone');
  if (given(v.additionalTelephoneNumbers) && !isPhoneList(v.additionalTelephoneNumbers)) {
    add('additionalTelephoneNumbers', 'invalid_phone');
  }
  if (given(v.insurerCode) && !isInsurerCode(v.insurerCode)) {
    add('insurerCode', 'invalid_insurer_code');
  }
  if (given(v.initialDiagnosis) && !isPastDate(v.initialDiagnosis, today)) {
    add('initialDiagnosis', 'implausible_date');
  }
  const contact = v.contactPerson;
  if (given(contact?.email) && !isEmail(contact.email.trim())) {
    add('contactPerson.email', 'invalid_email');
  }
  if (given(contact?.telephone) && !isPhoneNumber(contact.telephone)) {
    add('contactPerson.telephone', 'invalid_phone');
  }
  return errors;
}
