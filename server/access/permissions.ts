import type { components } from '../../shared/contract/product';
import { ROLES, SESSION_PERMISSIONS } from '../../shared/contract/enums';
import { CLINICAL_READERS, REVIEW_COMPLETERS } from '../../shared/clinical-access';
import { METHODS, readContract, type OpenApiDocument } from '../http/contract';
import { PICKS_COACH, HOLDS_APPOINTMENTS, STAFF } from './policy';

/**
 * What each role may do, as the session's permissions: the web app's pages and machines read
 * these and never a role. A permission that stands for calling an operation takes that
 * operation's `x-roles` from the contract, so its role list is written once; the others are the
 * policy's own lists (server/access/policy.ts, shared/clinical-access.ts).
 */

type Role = components['schemas']['Role'];
export type SessionPermission = components['schemas']['SessionPermission'];

/** Permissions that mean "may call this operation" (SUPERADMIN passes every role check). */
export const OPERATION_PERMISSIONS = {
  manageBilling: 'batchApproveBillableItems',
  eraseClients: 'deleteClient',
  sendSignInLinks: 'requestClientAuth',
  readAccessLog: 'listClinicalAccessLog',
  exportClinical: 'exportClientClinicalDocuments',
} as const satisfies Partial<Record<SessionPermission, string>>;

type OperationPermission = keyof typeof OPERATION_PERMISSIONS;

/** The policy's permissions that are not one operation. */
const ROLE_PERMISSIONS: Record<Exclude<SessionPermission, OperationPermission>, readonly Role[]> = {
  readClinical: CLINICAL_READERS,
  completeReview: REVIEW_COMPLETERS,
  pickCoach: PICKS_COACH,
  holdAppointments: HOLDS_APPOINTMENTS,
  openStaffPages: STAFF,
  openClientPages: ['NONE'],
};

/** Each operation's x-roles, read from the contract once. */
function rolesOfOperations(doc: OpenApiDocument): Map<string, readonly string[]> {
  const roles = new Map<string, readonly string[]>();
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as { operationId?: string; 'x-roles'?: string[] } | undefined;
      if (op?.operationId) roles.set(op.operationId, op['x-roles'] ?? []);
    }
  }
  return roles;
}

let grants: Map<SessionPermission, readonly Role[]> | undefined;

/** Which roles hold each permission (the contract is read on first use). */
export function grantsOf(doc?: OpenApiDocument): Map<SessionPermission, readonly Role[]> {
  if (grants && !doc) return grants;
  const operationRoles = rolesOfOperations(doc ?? readContract());
  const table = new Map<SessionPermission, readonly Role[]>();
  for (const permission of SESSION_PERMISSIONS) {
    if (permission in OPERATION_PERMISSIONS) {
      const operation = OPERATION_PERMISSIONS[permission as OperationPermission];
      const roles = operationRoles.get(operation);
      if (!roles) throw new Error(`${permission}: the contract has no operation ${operation}`);
      const allowed = (r: Role) => r === 'SUPERADMIN' || roles.includes('ANY') || roles.includes(r);
      table.set(permission, ROLES.filter(allowed));
    } else {
      table.set(permission, ROLE_PERMISSIONS[permission as keyof typeof ROLE_PERMISSIONS]);
    }
  }
  if (!doc) grants = table;
  return table;
}

/** What the login answer gives the session. */
export function permissionsOf(role: Role): SessionPermission[] {
  return SESSION_PERMISSIONS.filter((p) => grantsOf().get(p)!.includes(role));
}
