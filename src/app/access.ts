import { withReturnTo } from '../lib/return-to';
import type { Role } from '../machines/session.machine';
import type { SessionStatus } from '../views/session-status';

/**
 * Who may open a page (the specification's screens and roles). Pages without `access` are open.
 * Protected pages render only with a session and an active user; `allowInactive` pages
 * (activation) need a session only. `roles` narrows further; SUPERADMIN passes every check.
 */
export interface RouteAccess {
  roles?: readonly Role[];
  allowInactive?: boolean;
}

export const STAFF: readonly Role[] = ['COACH', 'ADMIN', 'ONBOARDING_MANAGER'];
export const MANAGERS: readonly Role[] = ['ADMIN', 'ONBOARDING_MANAGER'];
export const ADMIN_ONLY: readonly Role[] = ['ADMIN'];
export const SUPERADMIN_ONLY: readonly Role[] = ['SUPERADMIN'];

/**
 * The specification's roles and permissions: SUPERADMIN passes every role check; other roles must
 * be in the list.
 */
export const hasRole = (role: Role, allowed: readonly Role[] | undefined): boolean =>
  allowed === undefined || role === 'SUPERADMIN' || allowed.includes(role);

export type AccessDecision =
  | { kind: 'render' }
  /** The session is still being restored or checked: show nothing yet. */
  | { kind: 'wait' }
  | { kind: 'redirect'; to: string }
  /** Signed in at the provider, but the product's login call failed. */
  | { kind: 'partial' }
  /** Signed in and active, but the role may not open this page. */
  | { kind: 'forbidden' };

export function decideAccess(
  status: SessionStatus,
  access: RouteAccess | undefined,
  /** Path and query of the page asked for, carried as returnTo. */
  here: string,
): AccessDecision {
  if (!access) return { kind: 'render' };
  switch (status.kind) {
    case 'pending':
      return { kind: 'wait' };
    case 'signedOut':
      return { kind: 'redirect', to: withReturnTo('/login', here) };
    case 'partial':
      return { kind: 'partial' };
    case 'signedIn': {
      const { session } = status;
      if (!session.active && !access.allowInactive) {
        return { kind: 'redirect', to: withReturnTo('/notactive', here) };
      }
      if (session.active && !hasRole(session.role, access.roles)) return { kind: 'forbidden' };
      return { kind: 'render' };
    }
  }
}
