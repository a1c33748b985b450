import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { clients } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { PICKS_COACH } from '../../access/policy';
import { forbidden, HttpProblem } from '../../http/problem';
import { clientScope } from './repository';
import { CLINICAL_CLIENT_FIELDS, mayReadClinical } from '../../../shared/clinical-access';

/**
 * A client named by id in a body or filter must be in the caller's reach: a coach names
 * only clients they coach (a record outside it answers 403, whether it exists or not).
 */
export async function assertClientInScope(db: Db | Tx, principal: Principal, clientId: string) {
  const scope = clientScope(principal);
  if (!scope) return;
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.id, clientId), scope));
  if (!row) throw forbidden('forbidden_scope', 'Coaches reach only the clients they coach');
}

/**
 * Handing a client to a coach (coachedById, existingClientOfCoachId) is for admins and
 * onboarding managers; a coach may send the fields unchanged, as the form does.
 */
export function assertMayAssignCoach(
  principal: Principal,
  before: { coachedById: string | null; existingClientOfCoachId: string | null },
  input: { coachedById?: string | null; existingClientOfCoachId?: string | null },
) {
  if (PICKS_COACH.includes(principal.role)) return;
  const changes = (field: 'coachedById' | 'existingClientOfCoachId') =>
    input[field] !== undefined && (input[field] ?? null) !== before[field];
  if (changes('coachedById') || changes('existingClientOfCoachId')) {
    throw forbidden(
      'forbidden_reassign',
      'Only admins and onboarding managers assign a client to a coach',
    );
  }
}

/**
 * A role that may not read the clinical fields may not write them either (it would change what
 * it cannot see): 403 naming the field. A new record may carry them empty (null), as the staff
 * form sends them; a change may not name them at all.
 */
export function assertMayWriteClinical(
  principal: Principal,
  input: Partial<Record<(typeof CLINICAL_CLIENT_FIELDS)[number], unknown>>,
  write: 'create' | 'update',
) {
  if (mayReadClinical(principal.role)) return;
  for (const field of CLINICAL_CLIENT_FIELDS) {
    const value = input[field];
    if (value === undefined || (write === 'create' && value === null)) continue;
    const message = `${field} is clinical content, which this role may not read or write`;
    throw new HttpProblem(403, 'forbidden_clinical', 'Forbidden', message, [
      { field, code: 'forbidden_clinical', message },
    ]);
  }
}
