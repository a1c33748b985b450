import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authUsers } from '../db/schema/index';
import {
  addEmail,
  deleteAccount,
  deleteEmail,
  emailsOf,
  setPrimaryEmail,
  usernameOf,
  wireEmail,
} from './accounts';
import { EMAIL_PATTERN } from './flow/validation';
import { metadataOfRow, userFacingMetadata } from './metadata';
import { overLimit, sessionCookie } from './flows/shared';
import type { AuthProvider } from './provider';
import { createUser, findUserByEmail, sessionEmail } from './users';
import type { VerifiedSession } from './sessions';
import { credentialsOf, wireCredential } from './webauthn';
import { inTransaction } from '../db/transaction';

/** The value of one request cookie. */
export function readCookie(request: FastifyRequest, cookieName: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookieName && value.length > 0) return value.join('=');
  }
  return null;
}

/** The session token: `Authorization: Bearer …` or the session cookie. */
export function sessionToken(request: FastifyRequest, cookieName: string): string | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (bearer?.[1]) return bearer[1];
  return readCookie(request, cookieName);
}

/** Errors of the non-flow calls: Echo's `{code, message}` (openapi `HttpError`). */
export const httpError = (reply: FastifyReply, code: number, message: string) =>
  reply.code(code).header('cache-control', 'no-store').send({ code, message });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The first property of a JSON body its schema does not have (additionalProperties: false). */
function unknownProperty(body: unknown, known: readonly string[]): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  return Object.keys(body).find((key) => !known.includes(key)) ?? null;
}

/**
 * Reads one e-mail field of a JSON body: trimmed, lower-cased, checked like the flows'
 * e-mail input. Answers an error message naming the field, or the address.
 */
function emailField(
  body: unknown,
  field: string,
  maxLength: number,
): { error: string } | { address: string } {
  const value =
    body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  if (typeof value !== 'string' || value.trim() === '')
    return { error: `${field}: value_missing_error` };
  const address = value.trim().toLowerCase();
  if (Buffer.byteLength(address, 'utf8') > maxLength)
    return { error: `${field}: value_too_long_error` };
  if (!EMAIL_PATTERN.test(address)) return { error: `${field}: value_invalid_error` };
  return { address };
}

/**
 * The legacy REST calls of Hanko ≤ 2.x that the widget makes (the specification's list of calls,
 * protocol §4.7): user look-up and creation, the current user, account deletion and the e-mail
 * addresses of the current user. Every call that touches an account takes the user from the session
 * and puts that id into each query, so nobody reaches another user's data.
 */
export function registerRestRoutes(app: FastifyInstance, provider: AuthProvider) {
  const { auth, sessions, db, rateLimits, events } = provider;

  /** After a commit: the product hears of the user's (new) primary address. */
  async function primaryChanged(userId: string, at: Date) {
    const email = (await sessionEmail(db, userId))?.address ?? null;
    await events.emit({ type: 'user.email_changed', userId, email, occurredAt: at });
  }

  /** The unauthenticated calls are limited per IP; answers true when a 429 was sent. */
  async function limited(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const wait = await overLimit(rateLimits.authAccountLookup, request.ip);
    if (wait === null) return false;
    await httpError(reply.header('retry-after', String(wait)), 429, 'Too Many Requests');
    return true;
  }

  /** The caller's session, or a 401 already sent. */
  async function requireSession(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<VerifiedSession | null> {
    const token = sessionToken(request, auth.AUTH_COOKIE_NAME);
    const session = token ? await sessions.verify(token) : null;
    if (!session) {
      await httpError(reply, 401, 'Unauthorized');
      return null;
    }
    return session;
  }

  // Hanko ≤ 2.x: look a user up by e-mail. Without existence hints every address is
  // "unknown" (404), so the call cannot tell whether someone has an account (Q7).
  app.post('/user', async (request, reply) => {
    if (await limited(request, reply)) return reply;
    const field = emailField(request.body, 'email', auth.AUTH_EMAIL_MAX_LENGTH);
    if ('error' in field) return httpError(reply, 400, field.error);
    const found = auth.AUTH_SHOW_ACCOUNT_EXISTENCE_HINTS
      ? await findUserByEmail(db, field.address)
      : null;
    if (!found) return httpError(reply, 404, 'Not Found');
    return reply.header('cache-control', 'no-store').send({
      id: found.userId,
      email_id: found.emailId,
      verified: found.verified,
      has_webauthn_credential: (await credentialsOf(db, found.userId)).some((c) => !c.mfaOnly),
    });
  });

  // Hanko ≤ 2.x: create a user with an (unverified) address; with verification off the
  // answer carries a session. A taken address is 409 only where it could be told anyway
  // (hints on, or verification off as in the registration flow); otherwise the answer looks
  // like a new user and nothing is created.
  app.post('/users', async (request, reply) => {
    if (await limited(request, reply)) return reply;
    if (!auth.AUTH_SIGNUP_ENABLED) return httpError(reply, 403, 'Forbidden');
    const field = emailField(request.body, 'email', auth.AUTH_EMAIL_MAX_LENGTH);
    if ('error' in field) return httpError(reply, 400, field.error);
    const verify = auth.AUTH_EMAIL_REQUIRE_VERIFICATION;
    const taken = await findUserByEmail(db, field.address);
    if (taken && (!verify || auth.AUTH_SHOW_ACCOUNT_EXISTENCE_HINTS)) {
      return httpError(reply, 409, 'Conflict');
    }
    if (taken) {
      const fake = randomUUID();
      return reply
        .header('cache-control', 'no-store')
        .send({ id: fake, user_id: fake, email_id: randomUUID() });
    }
    const userId = randomUUID();
    const now = new Date();
    const created = await inTransaction(db, async (tx) => {
      await createUser(tx, {
        id: userId,
        email: field.address,
        emailVerified: false,
        username: null,
        passwordHash: null,
        now,
      });
      const [email] = await emailsOf(tx, userId);
      if (verify) return { emailId: email!.id, token: null };
      const issued = await sessions.issue(tx, {
        userId,
        email: await sessionEmail(tx, userId),
        amr: [],
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        now,
      });
      return { emailId: email!.id, token: issued.token };
    });
    await events.emit({ type: 'user.created', userId, email: field.address, occurredAt: now });
    if (created.token) {
      const lifetime = auth.AUTH_SESSION_LIFETIME_SECONDS;
      reply
        .header('x-session-lifetime', String(lifetime))
        .header('x-session-retention', 'persistent');
      if (auth.AUTH_SESSION_TOKEN_HEADER) reply.header('x-auth-token', created.token);
      else reply.header('set-cookie', sessionCookie(auth, created.token, lifetime));
    }
    return reply
      .header('cache-control', 'no-store')
      .send({ id: userId, user_id: userId, email_id: created.emailId });
  });

  // Hanko ≤ 2.x: only the caller's own id (403 for any other, as Hanko answered).
  app.get('/users/:id', async (request, reply) => {
    const session = await requireSession(request, reply);
    if (!session) return reply;
    const { id } = request.params as { id: string };
    if (!UUID.test(id)) return httpError(reply, 400, 'id: value_invalid_error');
    if (id !== session.userId) return httpError(reply, 403, 'Forbidden');
    const emails = await emailsOf(db, id);
    const primary = emails.find((e) => e.isPrimary);
    const username = await usernameOf(db, id);
    const [user] = await db.select().from(authUsers).where(eq(authUsers.id, id));
    if (!user) return httpError(reply, 404, 'Not Found');
    return reply.header('cache-control', 'no-store').send({
      id,
      ...(primary ? { email: primary.address } : {}),
      ...(username ? { username: username.username } : {}),
      webauthn_credentials: (await credentialsOf(db, id)).map(wireCredential),
      emails: emails.map(wireEmail),
      created_at: user.createdAt,
      updated_at: user.updatedAt,
      ...userFacingMetadata(metadataOfRow(user)),
    });
  });

  app.delete('/user', async (request, reply) => {
    const session = await requireSession(request, reply);
    if (!session) return reply;
    if (!auth.AUTH_ACCOUNT_DELETION) return httpError(reply, 403, 'Forbidden');
    const ended = await inTransaction(db, (tx) => deleteAccount(tx, session.userId));
    sessions.forget(ended);
    await events.emit({ type: 'user.deleted', userId: session.userId, email: null });
    return reply
      .code(204)
      .header('set-cookie', sessionCookie(auth, '', 0))
      .send();
  });

  app.get('/emails', async (request, reply) => {
    const session = await requireSession(request, reply);
    if (!session) return reply;
    const emails = await emailsOf(db, session.userId);
    return reply.header('cache-control', 'no-store').send(emails.map(wireEmail));
  });

  // Adds an unverified address (Hanko ≤ 2.x); the profile flow's email_verify verifies it.
  app.post('/emails', async (request, reply) => {
    const session = await requireSession(request, reply);
    if (!session) return reply;
    const unknown = unknownProperty(request.body, ['address']);
    if (unknown) return httpError(reply, 400, `${unknown}: unknown_property_error`);
    const field = emailField(request.body, 'address', auth.AUTH_EMAIL_MAX_LENGTH);
    if ('error' in field) return httpError(reply, 400, field.error);
    const userId = session.userId;
    const result = await inTransaction(db, async (tx) => {
      const emails = await emailsOf(tx, userId);
      if (emails.length >= auth.AUTH_EMAIL_LIMIT) return 'max' as const;
      if (await findUserByEmail(tx, field.address)) return 'exists' as const;
      return addEmail(tx, userId, field.address, !auth.AUTH_EMAIL_REQUIRE_VERIFICATION, new Date());
    });
    if (result === 'max') return httpError(reply, 409, 'max number of email addresses reached');
    if (result === 'exists') return httpError(reply, 400, 'email_already_exists');
    if (result.isPrimary) await primaryChanged(userId, new Date());
    return reply.header('cache-control', 'no-store').send(wireEmail(result));
  });

  /** The signed-in user's address named by `:id`, or null after answering 401, 400 or 404. */
  async function ownEmail(request: FastifyRequest, reply: FastifyReply) {
    const session = await requireSession(request, reply);
    if (!session) return null;
    const { id } = request.params as { id: string };
    if (!UUID.test(id)) {
      await httpError(reply, 400, 'id: value_invalid_error');
      return null;
    }
    const emails = await emailsOf(db, session.userId);
    const target = emails.find((e) => e.id === id);
    if (!target) {
      await httpError(reply, 404, 'Not Found');
      return null;
    }
    return { session, id, emails, target };
  }

  app.post('/emails/:id/set_primary', async (request, reply) => {
    const own = await ownEmail(request, reply);
    if (!own) return reply;
    const { session, id, target } = own;
    if (!target.verified && auth.AUTH_EMAIL_REQUIRE_VERIFICATION) {
      return httpError(reply, 400, 'id: email_not_verified');
    }
    if (!target.isPrimary) {
      await inTransaction(db, (tx) => setPrimaryEmail(tx, session.userId, id, new Date()));
      await primaryChanged(session.userId, new Date());
    }
    return reply.code(204).send();
  });

  app.delete('/emails/:id', async (request, reply) => {
    const own = await ownEmail(request, reply);
    if (!own) return reply;
    const { session, id, emails, target } = own;
    if (target.isPrimary || emails.length <= 1) {
      return httpError(reply, 409, 'the primary e-mail address cannot be deleted');
    }
    await deleteEmail(db, session.userId, id, new Date());
    return reply.code(204).send();
  });
}
