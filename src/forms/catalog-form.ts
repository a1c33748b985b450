import { Temporal } from '@js-temporal/polyfill';
import { z } from 'zod';
import type { components } from '../../shared/contract/product';
import { berlinStartOfDay, isoDateInBerlin } from '../views/staff/format';
import { countryCode, optionalEmail, optionalText, postalCode, requiredText } from './fields';
import type { FormSchema, FormValues } from './form-schema';

/**
 * The forms of the maintained lists (`/admin/insurers…`, `/admin/campaigns…`): the contract's
 * rules (Create/UpdateInsurerRequest, Create/UpdateCampaignRequest) as German field errors.
 * "Aktiv" is a checkbox: an inactive entry is no longer offered for new clients, while the
 * clients who have it keep it and the list filters still offer it.
 */
type Insurer = components['schemas']['Insurer'];
type Campaign = components['schemas']['Campaign'];

/**
 * The invoice address of a payer (insurer, sponsor campaign): optional, as the contract says;
 * a German postal code has five digits, the country is two capital letters (DE when empty).
 */
const addressFields = {
  street: optionalText(200),
  postalCode,
  city: optionalText(100),
  country: countryCode('DE'),
  invoiceEmail: optionalEmail,
};

const germanPostalCode = (v: { country: string; postalCode: string | null }) =>
  v.country !== 'DE' || v.postalCode === null || /^[0-9]{5}$/.test(v.postalCode);
const postalCodeRule = { path: ['postalCode'], error: 'invalid_postal_code_de' };

const addressValues = (
  r: Pick<Insurer, 'street' | 'postalCode' | 'city' | 'country' | 'invoiceEmail'> | null,
) => ({
  street: r?.street ?? '',
  postalCode: r?.postalCode ?? '',
  city: r?.city ?? '',
  country: r?.country ?? 'DE',
  invoiceEmail: r?.invoiceEmail ?? '',
});

export const insurerFormSchema = z
  .object({
    name: requiredText(100),
    ikNumber: z
      .string()
      .trim()
      .regex(/^[0-9]{9}$/, { error: 'invalid_ik_number' }),
    active: z.boolean(),
    ...addressFields,
  })
  .refine(germanPostalCode, postalCodeRule) as unknown as FormSchema;

export const newInsurerValues = (): FormValues => ({
  name: '',
  ikNumber: '',
  active: true,
  ...addressValues(null),
});

export const insurerFormValues = (i: Insurer): FormValues => ({
  name: i.name,
  ikNumber: i.ikNumber,
  active: i.active,
  ...addressValues(i),
});

/**
 * A campaign runs over whole Berlin days: the start is the first day's midnight, the end the
 * midnight after the last day (so "bis 31.05." includes that day).
 */
const optionalDay = z
  .string()
  .trim()
  .refine((s) => s === '' || z.iso.date().safeParse(s).success, { error: 'invalid_date' });
const dayAfter = (date: string) => Temporal.PlainDate.from(date).add({ days: 1 }).toString();
const dayBefore = (date: string) => Temporal.PlainDate.from(date).subtract({ days: 1 }).toString();

export const campaignFormSchema = z
  .object({
    code: z
      .string()
      .trim()
      .min(1, { error: 'value_missing' })
      .max(64, { error: 'value_too_long' })
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { error: 'invalid_campaign_code' }),
    name: requiredText(100),
    description: optionalText(5000),
    active: z.boolean(),
    startsOn: optionalDay,
    endsOn: optionalDay,
    ...addressFields,
  })
  .refine(germanPostalCode, postalCodeRule)
  .refine((v) => !v.startsOn || !v.endsOn || v.endsOn >= v.startsOn, {
    path: ['endsOn'],
    error: 'end_before_start',
  })
  .transform(({ startsOn, endsOn, ...rest }) => ({
    ...rest,
    startsAt: startsOn ? berlinStartOfDay(startsOn) : null,
    endsAt: endsOn ? berlinStartOfDay(dayAfter(endsOn)) : null,
  })) as unknown as FormSchema;

export const newCampaignValues = (): FormValues => ({
  code: '',
  name: '',
  description: '',
  active: true,
  startsOn: '',
  endsOn: '',
  ...addressValues(null),
});

export const campaignFormValues = (c: Campaign): FormValues => ({
  code: c.code,
  name: c.name,
  description: c.description ?? '',
  active: c.active,
  startsOn: c.startsAt ? isoDateInBerlin(c.startsAt) : '',
  endsOn: c.endsAt ? dayBefore(isoDateInBerlin(c.endsAt)) : '',
  ...addressValues(c),
});
