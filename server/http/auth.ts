import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema/index';
import { HttpProblem, unauthorized } from './problem';

export type Role = (typeof users.$inferSelect)['role'];

/** What the provider's token says about the caller. */
export interface TokenClaims {
  subject: string;
  email: string | null;
}

/** The caller as the product sees them: the token plus our own users row, if any. */
export interface Principal extends TokenClaims {
  user: typeof users.$inferSelect | null;
  role: Role;
  active: boolean;
}

export type TokenVerifier = (token: string) => Promise<TokenClaims>;

export interface VerifierOptions {
  issuer: string;
  audience: string;
  /** In-process key set (the mounted auth provider, tests) or a remote JWKS URL. */
  jwks: JSONWebKeySet | (() => Promise<JSONWebKeySet>) | URL;
  /**
   * Whether the token's server-side session still exists (the mounted provider). When set,
   * a token without `session_id` is refused and every call asks, so a logout or revocation
   * ends access at once; the provider may answer from a short cache.
   */
  sessionActive?: (sessionId: string, subject: string) => Promise<boolean>;
}

/**
 * The key set and session check of an auth provider mounted in this process (the embedded
 * set-up and the test app): keys read on each miss, so a key rotation is seen at once.
 */
export const mountedProviderKeys = (provider: {
  jwks(): JSONWebKeySet;
  sessions: { isActive: NonNullable<VerifierOptions['sessionActive']> };
}): Pick<VerifierOptions, 'jwks' | 'sessionActive'> => ({
  jwks: async () => provider.jwks(),
  sessionActive: provider.sessions.isActive,
});

export function createTokenVerifier(options: VerifierOptions): TokenVerifier {
  const keySet =
    options.jwks instanceof URL
      ? createRemoteJWKSet(options.jwks)
      : typeof options.jwks === 'function'
        ? (() => {
            const load = options.jwks as () => Promise<JSONWebKeySet>;
            return async (...args: Parameters<ReturnType<typeof createLocalJWKSet>>) =>
              createLocalJWKSet(await load())(...args);
          })()
        : createLocalJWKSet(options.jwks);
  // A verified token's claims never change: remember them until it expires, so a busy
  // client does not pay for a signature check on every call.
  const verified = new Map<
    string,
    { claims: TokenClaims; sessionId: string | null; expiresAt: number }
  >();
  const MAX_REMEMBERED = 10_000;
  const { sessionActive } = options;
  const checkSession = async (claims: TokenClaims, sessionId: string | null) => {
    if (!sessionActive) return claims;
    if (!sessionId || !(await sessionActive(sessionId, claims.subject))) {
      throw unauthorized('The session has ended');
    }
    return claims;
  };
  return async (token) => {
    const known = verified.get(token);
    if (known && known.expiresAt > Date.now()) return checkSession(known.claims, known.sessionId);
    if (known) verified.delete(token);
    let claims: TokenClaims;
    let sessionId: string | null;
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: options.issuer,
        audience: options.audience,
      });
      if (!payload.sub) throw new Error('no subject');
      // Hanko-style tokens carry { address, is_verified }; only verified addresses count.
      const claim = payload.email as
        string | { address?: unknown; is_verified?: unknown } | undefined;
      const email =
        typeof claim === 'string'
          ? claim
          : typeof claim?.address === 'string' && claim.is_verified !== false
            ? claim.address
            : null;
      claims = { subject: payload.sub, email };
      sessionId = typeof payload.session_id === 'string' ? payload.session_id : null;
      if (payload.exp) {
        if (verified.size >= MAX_REMEMBERED) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims, sessionId, expiresAt: payload.exp * 1000 });
      }
    } catch {
      throw unauthorized('The session token is missing, invalid or expired');
    }
    return checkSession(claims, sessionId);
  };
}

export function bearerToken(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) throw unauthorized('A bearer token is required');
  return match[1];
}

const principalQueries = new WeakMap<Db, ReturnType<typeof preparePrincipalQuery>>();
const preparePrincipalQuery = (db: Db) =>
  db
    .select()
    .from(users)
    .where(eq(users.authSubject, sql.placeholder('subject')))
    .prepare('principal_by_subject');

type UserRow = typeof users.$inferSelect;
const principalCaches = new WeakMap<Db, Map<string, { user: UserRow; until: number }>>();
const MAX_CACHED_PRINCIPALS = 10_000;

/**
 * Forgets a caller's cached users row: writes to a users row call this, so a role change
 * or deactivation applies at once on this instance (on others within PRINCIPAL_CACHE_MS).
 */
export function forgetPrincipal(db: Db, subject: string | null | undefined) {
  if (subject) principalCaches.get(db)?.delete(subject);
}

/**
 * Runs on every authenticated call: a prepared statement, and its row is remembered for
 * `cacheMs` — a database round trip costs more than the rest of a small request.
 */
export async function resolvePrincipal(
  db: Db,
  claims: TokenClaims,
  cacheMs = 0,
): Promise<Principal> {
  let cache = principalCaches.get(db);
  if (!cache) principalCaches.set(db, (cache = new Map()));
  const cached = cache.get(claims.subject);
  let user: UserRow | undefined;
  if (cached && cached.until > Date.now()) {
    user = cached.user;
  } else {
    let query = principalQueries.get(db);
    if (!query) principalQueries.set(db, (query = preparePrincipalQuery(db)));
    [user] = await query.execute({ subject: claims.subject });
    // Only existing rows are remembered: a first login creates the row right after.
    if (user && cacheMs > 0) {
      if (cache.size >= MAX_CACHED_PRINCIPALS) cache.delete(cache.keys().next().value!);
      cache.set(claims.subject, { user, until: Date.now() + cacheMs });
    } else {
      cache.delete(claims.subject);
    }
  }
  return {
    ...claims,
    user: user ?? null,
    role: user?.role ?? 'NONE',
    active: user?.active ?? false,
  };
}

/** SUPERADMIN passes every check; ANY admits every signed-in caller. */
export function checkRoles(principal: Principal, roles: string[], allowInactive: boolean) {
  if (!principal.active && !allowInactive) {
    throw new HttpProblem(403, 'inactive_user', 'Forbidden', 'The account is not active');
  }
  if (roles.includes('ANY') || principal.role === 'SUPERADMIN') return;
  if (!roles.includes(principal.role)) {
    throw new HttpProblem(403, 'forbidden', 'Forbidden', 'The role may not call this operation');
  }
}
