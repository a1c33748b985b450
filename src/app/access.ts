import type { SnapshotFrom } from 'xstate';
import type { Role, SessionInfo, sessionMachine } from '../machines/session.machine';

/**
 * Who may open a page (specification sections 2 and 6). Pages without `access` are open.
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

/** Section 6: SUPERADMIN passes every role check; other roles must be in the list. */
export const hasRole = (role: Role, allowed: readonly Role[] | undefined): boolean =>
  allowed === undefined || role === 'SUPERADMIN' || allowed.includes(role);

/** The session as the guards see it. */
export type SessionStatus =
  | { kind: 'pending' }
  | { kind: 'signedOut' }
  | { kind: 'partial' }
  | { kind: 'signedIn'; session: SessionInfo };

export function sessionStatus(snapshot: SnapshotFrom<typeof sessionMachine>): SessionStatus {
  if (snapshot.matches('signedIn') && snapshot.context.session) {
    return { kind: 'signedIn', session: snapshot.context.session };
  }
  if (snapshot.matches('signedOut')) return { kind: 'signedOut' };
  if (snapshot.matches('partiallyLoggedIn')) return { kind: 'partial' };
  return { kind: 'pending' };
}

export type AccessDecision =
  | { kind: 'render' }
  /** The session is still being restored or checked: show nothing yet. */
  | { kind: 'wait' }
  | { kind: 'redirect'; to: string }
  /** Signed in at the provider, but the product's login call failed. */
  | { kind: 'partial' }
  /** Signed in and active, but the role may not open this page. */
  | { kind: 'forbidden' };

/** `/login?returnTo=%2Fcalendar%3Fx%3D1`: where to go, carrying the page the user came from. */
export const withReturnTo = (path: string, returnTo: string): string =>
  `${path}?returnTo=${encodeURIComponent(returnTo)}`;

/**
 * A returnTo value from the URL that is safe to follow: a path of this app (`/…`, not `//host`
 * or `/\host`), else undefined.
 */
export function safeReturnTo(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return undefined;
  }
  return value;
}

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
