import { Temporal } from '@js-temporal/polyfill';
import { z } from 'zod';
import { REJECTION_REASONS } from '../../shared/contract/enums';
import type { components } from '../../shared/contract/product';
import { clientFieldErrors } from '../../shared/client-fields.rules';
import {
  countryCode,
  nullIfEmpty,
  optionalEmail,
  optionalText,
  phone,
  postalCode,
  requiredText,
} from './fields';
import type { FormSchema, FormValues } from './form-schema';

/**
 * The client form of `/clients/new`, `/clients/{id}/edit` and `/pre-appointment/new`: what the
 * inputs hold (text and checkboxes), its rules (the contract's limits, in German at the field),
 * and the request body it becomes. The relative who booked is flattened into
 * `contactPerson.*` fields, so the server's field names (`contactPerson.email`) land on them.
 */
type Client = components['schemas']['Client'];

const currentYear = () => Temporal.Now.plainDateISO('Europe/Berlin').year;

/** A coach picked from the select (empty: none). */
const coachId = z
  .string()
  .refine((s) => s === '' || z.uuid().safeParse(s).success, { error: 'unknown_coach' })
  .transform(nullIfEmpty);

const fields = {
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: optionalEmail,
  yearOfBirth: z
    .string()
    .trim()
    .refine(
      (s) => s === '' || (/^\d{4}$/.test(s) && Number(s) >= 1900 && Number(s) <= currentYear()),
      {
        error: 'invalid_year',
      },
    )
    .transform((s) => (s === '' ? null : Number(s))),
  street: optionalText(200),
  postalCode,
  city: optionalText(100),
  country: countryCode(null),
  telephone: phone(40),
  additionalTelephoneNumbers: z
    .string()
    .trim()
    .max(200, { error: 'value_too_long' })
    .regex(/^[+0-9 ()/,-]*$/, { error: 'invalid_phone' })
    .transform(nullIfEmpty),
  notifyViaSms: z.boolean(),
  newsletterConsent: z.boolean(),
  insurer: optionalText(100),
  insurerCode: optionalText(64),
  campaign: optionalText(64),
  clientType: z.enum(['self', 'relative'], { error: 'value_missing' }),
  'contactPerson.firstName': optionalText(100),
  'contactPerson.lastName': optionalText(100),
  'contactPerson.email': optionalEmail,
  'contactPerson.telephone': phone(40),
  howDidYouHearAboutUs: optionalText(500),
  diagnosis: optionalText(5000),
  initialDiagnosis: z
    .string()
    .trim()
    .refine((s) => s === '' || z.iso.date().safeParse(s).success, { error: 'invalid_date' })
    .transform(nullIfEmpty),
  mentalStressIndicator: z
    .string()
    .trim()
    .refine((s) => s === '' || (/^\d{1,2}$/.test(s) && Number(s) <= 10), {
      error: 'value_too_large',
    })
    .transform((s) => (s === '' ? null : Number(s))),
  paidBySponsor: z.boolean(),
  wantsToProvideRecordingsForResearch: z.boolean(),
  hasNotSignedRequiredContract: z.boolean(),
  rejectionReasonType: z.enum(['', ...REJECTION_REASONS]).transform((s) => (s === '' ? null : s)),
  rejectionReasonNotes: optionalText(5000),
  notes: optionalText(5000),
  coachedById: coachId,
  existingClientOfCoachId: coachId,
};

export type ClientField = keyof typeof fields;

export const clientFormSchema = z
  .object(fields)
  .superRefine((v, ctx) => {
    // The rules sign-up and the server apply to the same fields (shared/client-fields.rules.ts).
    const relative = v.clientType === 'relative';
    const errors = clientFieldErrors(
      {
        ...v,
        contactPerson: relative
          ? { email: v['contactPerson.email'], telephone: v['contactPerson.telephone'] }
          : null,
      },
      new Date(),
    );
    for (const { field, code } of errors)
      ctx.addIssue({ code: 'custom', path: [field], message: code });
    // A relative booked: the contract needs the person to talk to (400 contactPerson otherwise).
    if (!relative) return;
    for (const key of ['contactPerson.firstName', 'contactPerson.lastName'] as const) {
      if (!v[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'value_missing' });
    }
  })
  .transform(
    ({
      'contactPerson.firstName': cpFirst,
      'contactPerson.lastName': cpLast,
      'contactPerson.email': cpEmail,
      'contactPerson.telephone': cpPhone,
      ...rest
    }) => ({
      ...rest,
      contactPerson:
        rest.clientType === 'relative'
          ? { firstName: cpFirst!, lastName: cpLast!, email: cpEmail, telephone: cpPhone }
          : null,
    }),
  ) as unknown as FormSchema;

/** A new client's starting values (the contract's defaults: DE, self, SMS on). */
export const newClientValues = (): FormValues => ({
  firstName: '',
  lastName: '',
  email: '',
  yearOfBirth: '',
  street: '',
  postalCode: '',
  city: '',
  country: 'DE',
  telephone: '',
  additionalTelephoneNumbers: '',
  notifyViaSms: false,
  newsletterConsent: false,
  insurer: '',
  insurerCode: '',
  campaign: '',
  clientType: 'self',
  'contactPerson.firstName': '',
  'contactPerson.lastName': '',
  'contactPerson.email': '',
  'contactPerson.telephone': '',
  howDidYouHearAboutUs: '',
  diagnosis: '',
  initialDiagnosis: '',
  mentalStressIndicator: '',
  paidBySponsor: false,
  wantsToProvideRecordingsForResearch: false,
  hasNotSignedRequiredContract: false,
  rejectionReasonType: '',
  rejectionReasonNotes: '',
  notes: '',
  coachedById: '',
  existingClientOfCoachId: '',
});

const s = (v: string | number | null | undefined) =>
  v === null || v === undefined ? '' : String(v);

/** A stored client as form values. */
export function clientFormValues(c: Client): FormValues {
  return {
    firstName: c.firstName,
    lastName: c.lastName,
    email: s(c.email),
    yearOfBirth: s(c.yearOfBirth),
    street: s(c.street),
    postalCode: s(c.postalCode),
    city: s(c.city),
    country: s(c.country),
    telephone: s(c.telephone),
    additionalTelephoneNumbers: s(c.additionalTelephoneNumbers),
    notifyViaSms: c.notifyViaSms,
    newsletterConsent: c.newsletterConsent,
    insurer: s(c.insurer),
    insurerCode: s(c.insurerCode),
    campaign: s(c.campaign),
    clientType: c.clientType,
    'contactPerson.firstName': s(c.contactPerson?.firstName),
    'contactPerson.lastName': s(c.contactPerson?.lastName),
    'contactPerson.email': s(c.contactPerson?.email),
    'contactPerson.telephone': s(c.contactPerson?.telephone),
    howDidYouHearAboutUs: s(c.howDidYouHearAboutUs),
    diagnosis: s(c.diagnosis),
    initialDiagnosis: s(c.initialDiagnosis),
    mentalStressIndicator: s(c.mentalStressIndicator),
    paidBySponsor: c.paidBySponsor,
    wantsToProvideRecordingsForResearch: c.wantsToProvideRecordingsForResearch,
    hasNotSignedRequiredContract: c.hasNotSignedRequiredContract,
    rejectionReasonType: s(c.rejectionReasonType),
    rejectionReasonNotes: s(c.rejectionReasonNotes),
    notes: s(c.notes),
    coachedById: s(c.coachedBy?.id),
    existingClientOfCoachId: s(c.existingClientOfCoachId),
  };
}
