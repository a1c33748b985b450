import { z } from 'zod';
import type { components } from '../../shared/contract/product';
import { optionalText, phone, requiredEmail, requiredText } from './fields';
import type { FormSchema, FormValues } from './form-schema';

/**
 * The coach form of `/coaches/new` and `/coaches/{id}/edit`: the contract's rules
 * (CreateCoachRequest / UpdateCoachRequest) as German field errors, checked before anything is
 * sent. Whether a coach is active is changed on the detail page (with a confirmation), not here.
 */
type Coach = components['schemas']['Coach'];

export const coachFormSchema = z.object({
  title: optionalText(50),
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: requiredEmail,
  telephone: phone(40),
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
