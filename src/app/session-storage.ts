import type { ListsAll } from '../../shared/contract/enums';
import type { BrowserSessionStore } from '../machines/actors/session';
import type { Role, SessionInfo, SessionPermission } from '../machines/session.machine';

/**
 * Where the session lives in the browser (the specification's states, calls and constants):
 * - the token in the JS-readable cookie `hanko`, as the provider's SDK keeps it (SameSite=Lax,
 *   Secure on https, expiring with the session), so the widget and the app share one token;
 * - the session (role, active, coach; never the API client) in local storage under `session`.
 */
export const TOKEN_COOKIE = 'hanko';
export const SESSION_STORAGE_KEY = 'session';

/** The contract's roles, checked complete: a list of its own keeps the start script small. */
const ROLES = [
  'NONE',
  'COACH',
  'ADMIN',
  'ONBOARDING_MANAGER',
  'SUPERADMIN',
] as const satisfies readonly Role[];
const _allRoles: ListsAll<Role, typeof ROLES> = true;
const PERMISSIONS = [
  'readClinical',
  'completeReview',
  'pickCoach',
  'holdAppointments',
  'manageBilling',
  'eraseClients',
  'sendSignInLinks',
  'readAccessLog',
  'exportClinical',
  'openStaffPages',
  'openClientPages',
] as const satisfies readonly SessionPermission[];
const _allPermissions: ListsAll<SessionPermission, typeof PERMISSIONS> = true;
/** Every login answer grants one area; a stored session without one predates them. */
const AREAS: readonly unknown[] = ['openStaffPages', 'openClientPages'];

/**
 * Whatever local storage holds may be stale or edited by hand; anything but a well-formed
 * session counts as none. A plain check, not zod: this runs on every page load and its
 * bundle is measured (bench/web.ts).
 */
function asStoredSession(value: unknown): SessionInfo | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const coach = v.coach as Record<string, unknown> | null | undefined;
  const coachOk =
    coach === null ||
    (typeof coach === 'object' && typeof coach.id === 'string' && typeof coach.name === 'string');
  if (
    typeof v.userId !== 'string' ||
    v.userId.length === 0 ||
    typeof v.role !== 'string' ||
    !(ROLES as readonly string[]).includes(v.role) ||
    typeof v.active !== 'boolean' ||
    !coachOk ||
    // Pages read permissions, not roles: a session stored before the login answer carried
    // them all counts as none, and the token signs in afresh.
    !Array.isArray(v.permissions) ||
    !v.permissions.some((p) => AREAS.includes(p))
  ) {
    return null;
  }
  return {
    userId: v.userId,
    ...(typeof v.email === 'string' ? { email: v.email } : {}),
    role: v.role as SessionInfo['role'],
    active: v.active,
    coach: coach ? { id: coach.id as string, name: coach.name as string } : null,
    permissions: v.permissions.filter((p): p is SessionPermission =>
      (PERMISSIONS as readonly unknown[]).includes(p),
    ),
  };
}

export interface BrowserSessionStoreDeps {
  document?: Pick<Document, 'cookie'> & { location?: { protocol: string } };
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

export function createBrowserSessionStore(deps: BrowserSessionStoreDeps = {}): BrowserSessionStore {
  const doc = deps.document ?? document;
  const storage = deps.storage ?? window.localStorage;
  const secure = () => (doc.location?.protocol === 'https:' ? '; Secure' : '');

  return {
    readToken() {
      for (const part of doc.cookie.split(';')) {
        const [name, ...value] = part.trim().split('=');
        if (name === TOKEN_COOKIE) return decodeURIComponent(value.join('=')) || null;
      }
      return null;
    },
    writeToken(token, expiresAt) {
      const expires = expiresAt === null ? '' : `; Expires=${new Date(expiresAt).toUTCString()}`;
      doc.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; SameSite=Lax${expires}${secure()}`;
    },
    readSession() {
      try {
        const raw = storage.getItem(SESSION_STORAGE_KEY);
        if (raw === null) return null;
        return asStoredSession(JSON.parse(raw));
      } catch {
        return null;
      }
    },
    writeSession(session) {
      storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
    },
    clear() {
      doc.cookie = `${TOKEN_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0${secure()}`;
      storage.removeItem(SESSION_STORAGE_KEY);
    },
  };
}
