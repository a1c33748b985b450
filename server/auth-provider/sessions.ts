import { and, asc, eq, gt, notInArray } from 'drizzle-orm';
import { createLocalJWKSet, errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Db, Tx } from '../db/client';
import { authSessions } from '../db/schema/index';
import type { AuthConfig } from './config';
import { SIGNING_ALGORITHM, type KeyStore } from './keys';

export interface SessionEmail {
  address: string;
  is_primary: boolean;
  is_verified: boolean;
}

/** `claims` of flow payloads and /sessions/validate (protocol §4.5), RFC 3339 times. */
export interface WireClaims {
  subject: string;
  session_id: string;
  expiration: string;
  issued_at: string;
  audience: string[];
  issuer: string;
  email?: SessionEmail;
  amr?: string[];
}

export interface IssuedSession {
  token: string;
  sessionId: string;
  claims: WireClaims;
}

export interface VerifiedSession {
  sessionId: string;
  userId: string;
  claims: WireClaims;
}

export interface SessionServiceOptions {
  db: Db;
  keys: KeyStore;
  auth: AuthConfig;
  issuer: string;
  audience: string;
}

function wireClaims(payload: JWTPayload): WireClaims {
  const email = payload.email as SessionEmail | undefined;
  const amr = payload.amr as string[] | undefined;
  return {
    subject: payload.sub!,
    session_id: payload.session_id as string,
    expiration: new Date(payload.exp! * 1000).toISOString(),
    issued_at: new Date(payload.iat! * 1000).toISOString(),
    audience: Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [],
    issuer: payload.iss!,
    ...(email ? { email } : {}),
    ...(amr ? { amr } : {}),
  };
}

/**
 * Session JWTs (ES256) backed by rows in `auth_sessions`: a token is valid only while its
 * row exists and has not expired, so logout and revocation end it at once.
 */
export function createSessionService(options: SessionServiceOptions) {
  const { db, keys, auth } = options;
  const keySet = () => createLocalJWKSet(keys.jwks());
  // Positive look-ups the product API may reuse for a moment; a revocation in this process
  // removes the entry at once.
  const active = new Map<string, number>();
  let lastForcedRefresh = 0;

  async function issue(
    tx: Tx | Db,
    input: {
      userId: string;
      email: SessionEmail | null;
      amr: string[];
      ip: string | null;
      userAgent: string | null;
      now: Date;
    },
  ): Promise<IssuedSession> {
    const lifetime = auth.AUTH_SESSION_LIFETIME_SECONDS;
    const issuedAt = Math.floor(input.now.getTime() / 1000);
    const expiresAt = new Date((issuedAt + lifetime) * 1000);
    const [row] = await tx
      .insert(authSessions)
      .values({
        userId: input.userId,
        userAgent: input.userAgent?.slice(0, 1000) ?? null,
        ipAddress: input.ip,
        lastUsed: input.now.toISOString(),
        createdAt: input.now.toISOString(),
        expiresAt: expiresAt.toISOString(),
      })
      .returning({ id: authSessions.id });
    const sessionId = row!.id;
    // At most AUTH_SESSION_LIMIT sessions per user: the oldest beyond it end.
    const keep = await tx
      .select({ id: authSessions.id })
      .from(authSessions)
      .where(eq(authSessions.userId, input.userId))
      .orderBy(asc(authSessions.createdAt))
      .then((rows) => rows.slice(-auth.AUTH_SESSION_LIMIT).map((r) => r.id));
    const dropped = await tx
      .delete(authSessions)
      .where(and(eq(authSessions.userId, input.userId), notInArray(authSessions.id, keep)))
      .returning({ id: authSessions.id });
    for (const { id } of dropped) active.delete(id);

    const token = await new SignJWT({
      session_id: sessionId,
      ...(input.email ? { email: input.email } : {}),
      amr: input.amr,
    })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: keys.signing.kid, typ: 'JWT' })
      .setSubject(input.userId)
      .setIssuer(options.issuer)
      .setAudience([options.audience])
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetime)
      .sign(keys.signing.key);
    const { payload } = await jwtVerify(token, keySet());
    return { token, sessionId, claims: wireClaims(payload) };
  }

  /** Signature, issuer, audience, expiry, and the session row. */
  async function verify(token: string, now = new Date()): Promise<VerifiedSession | null> {
    let payload: JWTPayload;
    const check = () =>
      jwtVerify(token, keySet(), {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: [SIGNING_ALGORITHM],
      });
    try {
      ({ payload } = await check());
    } catch (error) {
      // A key another instance has just published: read the keys again, once.
      // At most every 5 s, so tokens with made-up key ids cannot make every request read.
      if (!(error instanceof errors.JWKSNoMatchingKey) || Date.now() - lastForcedRefresh < 5_000)
        return null;
      lastForcedRefresh = Date.now();
      try {
        await keys.refresh();
        ({ payload } = await check());
      } catch {
        return null;
      }
    }
    const sessionId = payload.session_id;
    if (typeof sessionId !== 'string' || !payload.sub || !/^[0-9a-f-]{36}$/.test(sessionId))
      return null;
    const [row] = await db
      .select({ userId: authSessions.userId })
      .from(authSessions)
      .where(and(eq(authSessions.id, sessionId), gt(authSessions.expiresAt, now.toISOString())));
    if (!row || row.userId !== payload.sub) return null;
    return { sessionId, userId: row.userId, claims: wireClaims(payload) };
  }

  async function touch(sessionId: string, now = new Date()) {
    await db
      .update(authSessions)
      .set({ lastUsed: now.toISOString() })
      .where(eq(authSessions.id, sessionId));
  }

  async function revoke(sessionId: string) {
    active.delete(sessionId);
    await db.delete(authSessions).where(eq(authSessions.id, sessionId));
  }

  /** Drops cached positive look-ups (sessions deleted in a transaction, after its commit). */
  function forget(sessionIds: readonly string[]) {
    for (const id of sessionIds) active.delete(id);
  }

  /** A user's live sessions, oldest first (profile payload). */
  async function list(tx: Tx | Db, userId: string, now = new Date()) {
    return tx
      .select()
      .from(authSessions)
      .where(and(eq(authSessions.userId, userId), gt(authSessions.expiresAt, now.toISOString())))
      .orderBy(asc(authSessions.createdAt));
  }

  /** For the product API: does the session still exist? Positive answers are cached briefly. */
  async function isActive(sessionId: string, subject: string): Promise<boolean> {
    const until = active.get(sessionId);
    const nowMs = Date.now();
    if (until !== undefined && until > nowMs) return true;
    if (!/^[0-9a-f-]{36}$/.test(sessionId)) return false;
    const [row] = await db
      .select({ userId: authSessions.userId })
      .from(authSessions)
      .where(
        and(
          eq(authSessions.id, sessionId),
          gt(authSessions.expiresAt, new Date(nowMs).toISOString()),
        ),
      );
    const ok = !!row && row.userId === subject;
    if (ok && auth.AUTH_SESSION_CHECK_CACHE_MS > 0) {
      if (active.size > 50_000) active.clear();
      active.set(sessionId, nowMs + auth.AUTH_SESSION_CHECK_CACHE_MS);
    } else active.delete(sessionId);
    return ok;
  }

  return { issue, verify, touch, revoke, forget, list, isActive };
}

export type SessionService = ReturnType<typeof createSessionService>;
