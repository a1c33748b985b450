import { z } from 'zod';
import type { components } from '../../shared/contract/product';
import { optionalEmail, optionalText, requiredEmail, requiredText } from './fields';
import type { FormSchema, FormValues } from './form-schema';

/**
 * The practice settings form (`/admin/practice`): the contract's rules as German
 * field errors. The server checks the IBAN's check digits, the VAT id's form, and that a tax
 * number or VAT id and, with a register number, its court are given (400 naming the field).
 */
type PracticeSettings = components['schemas']['PracticeSettings'];

export const practiceSettingsFormSchema = z
  .object({
    name: requiredText(100),
    street: requiredText(200),
    postalCode: z
      .string()
      .trim()
      .regex(/^[0-9]{5}$/, { error: 'invalid_postal_code_de' }),
    city: requiredText(100),
    email: requiredEmail,
    phone: requiredText(40).regex(/^[+0-9 ()/-]{3,}$/, { error: 'invalid_phone' }),
    managingPerson: optionalText(200),
    registerCourt: optionalText(100),
    registerNumber: optionalText(40),
    vatId: optionalText(15),
    taxNumber: optionalText(40),
    iban: requiredText(42),
    dpoName: optionalText(200),
    dpoEmail: optionalEmail,
    supervisoryAuthority: optionalText(500),
  })
  .refine((v) => v.taxNumber !== null || v.vatId !== null, {
    path: ['taxNumber'],
    error: 'tax_number_or_vat_id',
  })
  .refine((v) => v.registerNumber === null || v.registerCourt !== null, {
    path: ['registerCourt'],
    error: 'value_missing',
  }) as unknown as FormSchema;

export const practiceSettingsValues = (s: PracticeSettings): FormValues => ({
  name: s.name,
  street: s.street,
  postalCode: s.postalCode,
  city: s.city,
  email: s.email,
  phone: s.phone,
  managingPerson: s.managingPerson ?? '',
  registerCourt: s.registerCourt ?? '',
  registerNumber: s.registerNumber ?? '',
  vatId: s.vatId ?? '',
  taxNumber: s.taxNumber ?? '',
  iban: s.iban,
  dpoName: s.dpoName ?? '',
  dpoEmail: s.dpoEmail ?? '',
  supervisoryAuthority: s.supervisoryAuthority ?? '',
});
