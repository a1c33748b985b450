import type { components } from './contract/product';

/**
 * Who may see clinical content, stated once for the server's answers and the session's
 * permissions (server/access/permissions.ts). Clinical content is the documents (summaries, patient
 * cards) and the client record's clinical fields; a role that may not read it gets the record
 * without those fields, and may not complete documents in review either (completing what one
 * cannot read is no review).
 */

type Role = components['schemas']['Role'];

/** Reads and writes clinical content (SUPERADMIN passes every check). */
export const CLINICAL_READERS: readonly Role[] = ['COACH', 'ADMIN', 'SUPERADMIN'];

/** Completes signed documents on /review: a second person who can read them, not their coach. */
export const REVIEW_COMPLETERS: readonly Role[] = ['ADMIN', 'SUPERADMIN'];

/** The client record's clinical fields: absent from the answers to other roles. */
export const CLINICAL_CLIENT_FIELDS = [
  'diagnosis',
  'initialDiagnosis',
  'mentalStressIndicator',
  'notes',
] as const;
export type ClinicalClientField = (typeof CLINICAL_CLIENT_FIELDS)[number];

export const mayReadClinical = (role: Role) => CLINICAL_READERS.includes(role);

/** The record without its clinical fields when the role may not read them. */
export function withoutClinical<T extends Partial<Record<ClinicalClientField, unknown>>>(
  role: Role,
  record: T,
): T | Omit<T, ClinicalClientField> {
  if (mayReadClinical(role)) return record;
  const rest = { ...record };
  for (const field of CLINICAL_CLIENT_FIELDS) delete rest[field];
  return rest;
}
