import { z } from 'zod';
import type { ListsAll } from '../../shared/contract/enums';
import type { components } from '../../shared/contract/product';
import { requiredEmail } from './fields';
import type { FormSchema, FormValues } from './form-schema';

/**
 * The user forms of `/users/new` (e-mail, role, coach record) and `/users/{id}/edit` (role,
 * coach record). A COACH account needs its coach record (docs/domain.md: a coach's user row links
 * the coach record); the server says the same (400 naming coachId). Which roles the caller may
 * hand out is the server's decision (403 role_not_assignable), shown in German.
 */
type User = components['schemas']['User'];
export type Role = components['schemas']['Role'];

/** The role select's order; every role of the contract (checked below). */
export const ROLES = [
  'COACH',
  'ONBOARDING_MANAGER',
  'ADMIN',
  'SUPERADMIN',
  'NONE',
] as const satisfies readonly Role[];
const _allRoles: ListsAll<Role, typeof ROLES> = true;

const role = z.enum(ROLES, { error: 'value_missing' });
const coachId = z
  .string()
  .refine((s) => s === '' || z.uuid().safeParse(s).success, { error: 'unknown_coach' })
  .transform((s) => (s === '' ? null : s));

/** A coach's account belongs to a coach record (the form asks for it). */
export const needsCoachRecord = (role: unknown) => role === 'COACH';

const coachNeeded = (v: { role: Role; coachId: string | null }, ctx: z.RefinementCtx) => {
  if (needsCoachRecord(v.role) && !v.coachId)
    ctx.addIssue({ code: 'custom', path: ['coachId'], message: 'value_missing' });
};

export const newUserSchema = z
  .object({
    email: requiredEmail,
    role,
    coachId,
  })
  .superRefine(coachNeeded) as unknown as FormSchema;

export const editUserSchema = z
  .object({ role, coachId })
  .superRefine(coachNeeded) as unknown as FormSchema;

export const newUserValues = (prefill: { email?: string; coachId?: string } = {}): FormValues => ({
  email: prefill.email ?? '',
  role: 'COACH',
  coachId: prefill.coachId ?? '',
});

export const userFormValues = (u: User): FormValues => ({
  role: u.role,
  coachId: u.coach?.id ?? '',
});
