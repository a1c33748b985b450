import { z } from 'zod';

/**
 * The field rules the staff forms share (client, coach, user): each check names its error code,
 * which the form shows in German at the field.
 */

/** An empty optional field is sent as `null`, not as "". */
export const nullIfEmpty = (s: string) => (s === '' ? null : s);

export const requiredText = (max: number) =>
  z.string().trim().min(1, { error: 'value_missing' }).max(max, { error: 'value_too_long' });

export const optionalText = (max: number) =>
  z.string().trim().max(max, { error: 'value_too_long' }).transform(nullIfEmpty);

const isEmail = (s: string) => s === '' || z.email().safeParse(s).success;

export const requiredEmail = requiredText(254).refine(isEmail, { error: 'invalid_email' });

export const optionalEmail = z
  .string()
  .trim()
  .max(254, { error: 'value_too_long' })
  .refine(isEmail, { error: 'invalid_email' })
  .transform(nullIfEmpty);

/** Digits, spaces and `+ ( ) / -`, at most `max` characters. */
export const phone = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: 'value_too_long' })
    .regex(/^[+0-9 ()/-]*$/, { error: 'invalid_phone' })
    .transform(nullIfEmpty);

/** A postal address's code: at most 16 characters here (five digits for Germany is a rule of the whole form). */
export const postalCode = z
  .string()
  .trim()
  .max(16, { error: 'invalid_postal_code' })
  .transform(nullIfEmpty);

/** A country as two capital letters (ISO 3166-1 alpha-2); `whenEmpty` is what an empty field becomes. */
export const countryCode = <Empty extends string | null>(whenEmpty: Empty) =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^([A-Z]{2})?$/, { error: 'invalid_country' })
    .transform((s): string | Empty => s || whenEmpty);
