import { z } from 'zod';
import type { components } from '../../shared/contract/product';
import {
  APPOINTMENT_TYPES,
  BILLING_PAYER_KINDS,
  BILLING_VAT_TREATMENTS,
  CLIENT_TYPES,
} from '../../shared/contract/enums';
import { optionalText, requiredText } from './fields';
import type { FormSchema, FormValues } from './form-schema';

/**
 * The billing rule form of `/billing/rules/new` and `/billing/rules/{id}/edit`: the contract's
 * rules (CreateBillingRuleRequest / UpdateBillingRuleRequest) as German field errors before
 * anything is sent. Every criterion is "any" when left empty (null in the request); the yes/no
 * criteria are selects with "egal", "ja", "nein". The price is typed in euros ("80,00").
 */
type Rule = components['schemas']['BillingRule'];

/** "" = any, else one of the values. */
const anyOf = <T extends string>(values: readonly T[]) =>
  z
    .string()
    .refine((s) => s === '' || (values as readonly string[]).includes(s), {
      error: 'value_not_allowed',
    })
    .transform((s) => (s === '' ? null : (s as T)));

const yesNoAny = z
  .enum(['', 'true', 'false'], { error: 'value_not_allowed' })
  .transform((s) => (s === '' ? null : s === 'true'));

const isoDate = z
  .string()
  .trim()
  .refine((s) => s === '' || /^\d{4}-\d{2}-\d{2}$/.test(s), { error: 'invalid_date' })
  .transform((s) => (s === '' ? null : s));

/** "80", "80,5", "80,00", "1.234,50" → cents; at most 1,000,000 € (the contract's maximum). */
export function euroToCents(text: string): number | null {
  const s = text.trim().replace(/\s|€/g, '');
  if (!/^\d{1,3}(\.\d{3})*(,\d{1,2})?$|^\d+(,\d{1,2})?$/.test(s)) return null;
  const [whole, fraction = ''] = s.replaceAll('.', '').split(',');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export const centsToEuro = (cents: number): string =>
  `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;

export const billingRuleFormSchema = z
  .object({
    name: requiredText(100),
    description: requiredText(500),
    amount: z
      .string()
      .trim()
      .min(1, { error: 'value_missing' })
      .refine((s) => euroToCents(s) !== null, { error: 'value_invalid_format' })
      .refine((s) => (euroToCents(s) ?? 0) <= 100_000_000, { error: 'value_too_large' }),
    appointmentType: anyOf(APPOINTMENT_TYPES),
    insurer: optionalText(100),
    campaign: optionalText(64),
    clientType: anyOf(CLIENT_TYPES),
    sponsorPays: yesNoAny,
    noShow: yesNoAny,
    cancelledLate: yesNoAny,
    validFrom: isoDate,
    validTo: isoDate,
    vatTreatment: z.enum(BILLING_VAT_TREATMENTS, { error: 'value_not_allowed' }),
    vatExemptionReason: optionalText(300),
    payerKind: z.enum(BILLING_PAYER_KINDS, { error: 'value_not_allowed' }),
    active: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.vatTreatment === 'exempt' && v.vatExemptionReason === null)
      ctx.addIssue({ code: 'custom', path: ['vatExemptionReason'], message: 'value_missing' });
    if (v.validFrom && v.validTo && v.validTo < v.validFrom)
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'end_before_start' });
  })
  .transform(({ amount, vatExemptionReason, ...rest }) => ({
    ...rest,
    amountCents: euroToCents(amount)!,
    // The server refuses a reason on a standard rule; an exempt one needs it.
    vatExemptionReason: rest.vatTreatment === 'exempt' ? vatExemptionReason : null,
  })) as unknown as FormSchema;

export const newBillingRuleValues = (): FormValues => ({
  name: '',
  description: '',
  amount: '',
  appointmentType: '',
  insurer: '',
  campaign: '',
  clientType: '',
  sponsorPays: '',
  noShow: '',
  cancelledLate: '',
  validFrom: '',
  validTo: '',
  vatTreatment: 'standard',
  vatExemptionReason: '',
  payerKind: 'client',
  active: true,
});

const yesNo = (b: boolean | null) => (b === null ? '' : String(b));

export const billingRuleFormValues = (r: Rule): FormValues => ({
  name: r.name,
  description: r.description,
  amount: centsToEuro(r.amountCents),
  appointmentType: r.appointmentType ?? '',
  insurer: r.insurer ?? '',
  campaign: r.campaign ?? '',
  clientType: r.clientType ?? '',
  sponsorPays: yesNo(r.sponsorPays),
  noShow: yesNo(r.noShow),
  cancelledLate: yesNo(r.cancelledLate),
  validFrom: r.validFrom ?? '',
  validTo: r.validTo ?? '',
  vatTreatment: r.vatTreatment,
  vatExemptionReason: r.vatExemptionReason ?? '',
  payerKind: r.payerKind,
  active: r.active,
});
