// zod/mini: the tree-shakable build, because this ships with /client-signup (bench/web.ts).
import * as z from 'zod/mini';
import {
  BOOKING_FOR,
  COUNTRIES,
  HEARD_FROM,
  insurerOf,
  type FieldErrors,
  type SignupFormValues,
  type SignupRequestBody,
} from './client-signup.form';
import {
  isEmail,
  isInsurerCode,
  isPhoneList,
  isPhoneNumber,
  isPlausibleYearOfBirth,
  isPostalCode,
} from '../../shared/client-fields.rules';

/**
 * The client sign-up form: what a new client gives about themselves, checked in
 * the browser before anything is sent, and again by the server (server/features/client-signup)
 * with the same field rules (shared/client-fields.rules.ts). Messages are keys of the `client`
 * namespace (`validation.*`), which the form shows in German next to the field.
 */

const text = (max: number, required: string) =>
  z.string().check(z.trim(), z.minLength(1, required), z.maxLength(max, 'validation.tooLong'));
const optionalText = (max: number) =>
  z.string().check(z.trim(), z.maxLength(max, 'validation.tooLong'));

/** The form's values as the fields hold them (strings and booleans). */
export function signupFormSchema(currentYear: number) {
  return z.object({
    bookingFor: z.enum(BOOKING_FOR),
    firstName: text(100, 'validation.firstNameRequired'),
    lastName: text(100, 'validation.lastNameRequired'),
    email: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'validation.emailRequired'),
        z.refine(isEmail, 'validation.email'),
      ),
    telephone: z
      .string()
      .check(
        z.minLength(1, 'validation.telephoneRequired'),
        z.refine(isPhoneNumber, 'validation.telephone'),
      ),
    additionalTelephoneNumbers: z
      .string()
      .check(
        z.maxLength(200, 'validation.tooLong'),
        z.refine(isPhoneList, 'validation.additionalTelephoneNumbers'),
      ),
    relativeFirstName: optionalText(100),
    relativeLastName: optionalText(100),
    yearOfBirth: z.string().check(
      z.trim(),
      z.minLength(1, 'validation.yearOfBirthRequired'),
      z.refine(
        (v) => /^\d{4}$/.test(v) && isPlausibleYearOfBirth(Number(v), currentYear),
        'validation.yearOfBirth',
      ),
    ),
    street: text(200, 'validation.streetRequired'),
    postalCode: text(16, 'validation.postalCodeRequired'),
    city: text(100, 'validation.cityRequired'),
    country: z.enum(COUNTRIES, 'validation.country'),
    insurerChoice: z.string(),
    insurer: optionalText(100),
    insurerCode: z
      .string()
      .check(z.refine((v) => v.trim() === '' || isInsurerCode(v), 'validation.insurerCode')),
    howDidYouHearAboutUs: z.union([z.enum(HEARD_FROM), z.literal('')]),
    wantsToProvideRecordingsForResearch: z.boolean(),
    notifyViaSms: z.boolean(),
    privacyConsent: z.literal(true, 'validation.privacyConsent'),
  });
}

export type SignupForm = z.infer<ReturnType<typeof signupFormSchema>>;
export type SignupField = keyof SignupForm;

/** The postal code for the chosen country; the relative's name when booking for a relative. */
function crossFieldErrors(values: SignupFormValues): FieldErrors {
  const errors: FieldErrors = {};
  if (values.postalCode.trim() && !isPostalCode(values.country, values.postalCode)) {
    errors.postalCode =
      values.country === 'DE' ? 'validation.postalCodeDe' : 'validation.postalCode';
  }
  if (values.bookingFor === 'relative') {
    if (!values.relativeFirstName.trim()) errors.relativeFirstName = 'validation.firstNameRequired';
    if (!values.relativeLastName.trim()) errors.relativeLastName = 'validation.lastNameRequired';
  }
  return errors;
}

/** Checks the form; the first message per field, as `client` namespace keys. */
export function validateSignupForm(
  values: SignupFormValues,
  currentYear: number,
): { ok: true; form: SignupForm } | { ok: false; errors: FieldErrors } {
  const parsed = signupFormSchema(currentYear).safeParse(values);
  // Rules across fields run whatever else is wrong, so every field gets its message at once.
  const errors: FieldErrors = crossFieldErrors(values);
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, form: parsed.data };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = issue.path[0] as keyof SignupFormValues | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/** Labels of `howDidYouHearAboutUs` as stored (German, for staff reading the record). */
export const HEARD_FROM_LABELS: Record<(typeof HEARD_FROM)[number], string> = {
  search: 'Suchmaschine',
  doctor: 'Ärztin/Arzt oder Praxis',
  insurer: 'Krankenkasse',
  friends: 'Freunde oder Familie',
  socialMedia: 'Soziale Medien',
  press: 'Presse',
  other: 'Sonstiges',
};

/**
 * The request for `POST /client/signup`. Booking for a relative: the client record is the
 * relative (their name, year of birth, address, insurer); the person filling in the form is
 * the contact person and owns the account, so the record's e-mail and telephone are theirs.
 */
export function toSignupRequest(form: SignupForm, campaign: string | null): SignupRequestBody {
  const self = form.bookingFor === 'self';
  const optional = <K extends string>(key: K, value: string) =>
    (value.trim() ? { [key]: value.trim() } : {}) as Partial<Record<K, string>>;
  return {
    firstName: self ? form.firstName : form.relativeFirstName.trim(),
    lastName: self ? form.lastName : form.relativeLastName.trim(),
    email: form.email,
    yearOfBirth: Number(form.yearOfBirth),
    street: form.street,
    postalCode: form.postalCode.trim().toUpperCase(),
    city: form.city,
    country: form.country,
    telephone: form.telephone.trim(),
    ...optional('additionalTelephoneNumbers', form.additionalTelephoneNumbers),
    ...optional('insurer', insurerOf(form)),
    ...optional('insurerCode', form.insurerCode.toUpperCase()),
    clientType: form.bookingFor,
    ...(self
      ? {}
      : {
          contactPerson: {
            firstName: form.firstName,
            lastName: form.lastName,
            email: form.email,
            telephone: form.telephone.trim(),
          },
        }),
    ...(form.howDidYouHearAboutUs
      ? { howDidYouHearAboutUs: HEARD_FROM_LABELS[form.howDidYouHearAboutUs] }
      : {}),
    wantsToProvideRecordingsForResearch: form.wantsToProvideRecordingsForResearch,
    notifyViaSms: form.notifyViaSms,
    ...(campaign ? { campaign } : {}),
    privacyConsent: true,
  };
}

/** What the sign-up machine's `validateForm` actor answers (./client-signup.machine.ts). */
export type SignupCheck =
  { ok: true; request: SignupRequestBody } | { ok: false; errors: FieldErrors };

/** The form checked and, when it is fine, turned into the request. */
export function checkSignupForm(input: {
  values: SignupFormValues;
  currentYear: number;
  campaign: string | null;
}): SignupCheck {
  const result = validateSignupForm(input.values, input.currentYear);
  return result.ok
    ? { ok: true, request: toSignupRequest(result.form, input.campaign) }
    : { ok: false, errors: result.errors };
}
