import { z } from 'zod';
import type { components } from '../../shared/contract/product';
import type { FormSchema, FormValues } from './form-schema';

/**
 * The coach form of `/coaches/new` and `/coaches/{id}/edit`: the contract's rules
 * (CreateCoachRequest / UpdateCoachRequest) as German field errors, checked before anything is
 * sent. Whether a coach is active is changed on the detail page (with a confirmation), not here.
 */
type Coach = components['schemas']['Coach'];

const nullIfEmpty = (s: string) => (s === '' ? null : s);

export const coachFormSchema = z.object({
  title: z.string().trim().max(50, { error: 'value_too_long' }).transform(nullIfEmpty),
  firstName: z.string().trim().min(1, { error: 'value_missing' }).max(100, { error: 'value_too_long' }),
  lastName: z.string().trim().min(1, { error: 'value_missing' }).max(100, { error: 'value_too_long' }),
  email: z
    .string()
    .trim()
    .min(1, { error: 'value_missing' })
    .max(254, { error: 'value_too_long' })
    .refine((s) => s === '' || z.email().safeParse(s).success, { error: 'invalid_email' }),
  telephone: z
    .string()
    .trim()
    .max(40, { error: 'value_too_long' })
    .regex(/^[+0-9 ()/-]*$/, { error: 'invalid_phone' })
    .transform(nullIfEmpty),
  takesInitialAppointments: z.boolean(),
}) as unknown as FormSchema;

export const newCoachValues = (): FormValues => ({
  title: '',
  firstName: '',
  lastName: '',
  email: '',
  telephone: '',
  takesInitialAppointments: true,
});

export const coachFormValues = (c: Coach): FormValues => ({
  title: c.title ?? '',
  firstName: c.firstName,
  lastName: c.lastName,
  email: c.email,
  telephone: c.telephone ?? '',
  takesInitialAppointments: c.takesInitialAppointments,
});

/** "Dr. Anna Berg". */
export const coachName = (c: Pick<Coach, 'title' | 'firstName' | 'lastName'>): string =>
  [c.title, c.firstName, c.lastName].filter(Boolean).join(' ');
