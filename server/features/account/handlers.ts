import { and, eq, isNull, sql } from 'drizzle-orm';
import { clients, coaches, users } from '../../db/schema/index';
import { permissionsOf } from '../../access/permissions';
import type { Db, Tx } from '../../db/client';
import { forgetPrincipal, type Principal } from '../../http/auth';
import { defineHandlers } from '../../http/handler';
import { badRequest, conflict } from '../../http/problem';
import { recordEvent, updateRecorded } from '../events/index';
import { hashActivationCode } from '../users/index';
import { inTransaction } from '../../db/transaction';

async function loginResponse(db: Db | Tx, userId: string) {
  const [row] = await db
    .select({
      userId: users.id,
      email: users.email,
      role: users.role,
      active: users.active,
      coachId: coaches.id,
      coachFirstName: coaches.firstName,
      coachLastName: coaches.lastName,
      clientId: clients.id,
    })
    .from(users)
    .leftJoin(coaches, eq(coaches.id, users.coachId))
    .leftJoin(clients, eq(clients.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) throw new Error('user vanished');
  return {
    userId: row.userId,
    email: row.email,
    role: row.role,
    active: row.active,
    permissions: permissionsOf(row.role),
    coach: row.coachId
      ? { id: row.coachId, name: `${row.coachFirstName} ${row.coachLastName}` }
      : null,
    // Only a client's own record: staff never get one, even when an e-mail matches.
    ...(row.role === 'NONE' && row.clientId ? { clientId: row.clientId } : {}),
  };
}

/** Locks and returns a client record with this e-mail that no account owns yet. */
async function unlinkedClient(tx: Tx, email: string) {
  const [client] = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(and(isNull(clients.userId), sql`lower(${clients.email}) = lower(${email})`))
    .limit(1)
    .for('update');
  return client ?? null;
}

/**
 * A NONE user who signed in before their client record existed (saw /notactive, then
 * signed up or was entered by staff) gets it at the next login: linked and active.
 * Users linked to a client already (also deactivated ones) and staff are left alone.
 */
async function linkExistingUser(
  db: Db,
  principal: Principal,
  user: NonNullable<Principal['user']>,
) {
  const email = principal.email;
  if (user.role !== 'NONE' || user.active || !email) return;
  const [candidate] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(isNull(clients.userId), sql`lower(${clients.email}) = lower(${email})`))
    .limit(1);
  if (!candidate) return;
  await inTransaction(db, async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, user.id)).for('update');
    if (!current || current.role !== 'NONE' || current.active) return;
    const [linked] = await tx
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.userId, current.id));
    if (linked) return;
    const client = await unlinkedClient(tx, email);
    if (!client) return;
    await tx.update(clients).set({ userId: current.id }).where(eq(clients.id, client.id));
    await updateRecorded(
      tx,
      users,
      current.id,
      { active: true },
      {
        type: 'user.updated',
        entityType: 'user',
        clientId: client.id,
        important: false,
        changes: { active: { from: false, to: true }, via: 'client_login' },
      },
    );
  });
}

/**
 * First sign-in: a row an admin prepared for this e-mail (staff) is claimed by the
 * caller's subject; anyone else gets a new row with role NONE. A NONE user whose e-mail
 * matches a client record nobody owns yet is linked to it and active (first or later login).
 */
async function userFor(db: Db, principal: Principal): Promise<string> {
  if (principal.user) {
    await linkExistingUser(db, principal, principal.user);
    return principal.user.id;
  }
  return inTransaction(db, async (tx) => {
    const [prepared] = principal.email
      ? await tx
          .update(users)
          .set({ authSubject: principal.subject, updatedAt: sql`now()` })
          .where(
            and(isNull(users.authSubject), sql`lower(${users.email}) = lower(${principal.email})`),
          )
          .returning({ id: users.id })
      : [];
    // A client signed up with this e-mail: the new account is theirs, and active.
    const client = !prepared && principal.email ? await unlinkedClient(tx, principal.email) : null;
    const [row] = prepared
      ? [prepared]
      : await tx
          .insert(users)
          .values({
            authSubject: principal.subject,
            email: principal.email ?? '',
            role: 'NONE',
            active: !!client,
          })
          .onConflictDoNothing()
          .returning({ id: users.id });
    if (!row) {
      // A concurrent first login created the row already.
      const [existing] = await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.authSubject, principal.subject));
      return existing!.id;
    }
    if (client) {
      await tx.update(clients).set({ userId: row.id }).where(eq(clients.id, client.id));
    }
    if (!prepared) {
      await recordEvent(tx, {
        type: 'user.created',
        entityType: 'user',
        entityId: row.id,
        clientId: client?.id ?? null,
        important: false,
        changes: { role: 'NONE', via: client ? 'client_login' : 'first_login' },
      });
    }
    return row.id;
  });
}

export const accountHandlers = defineHandlers({
  async login({ principal, deps }) {
    const userId = await userFor(deps.db, principal);
    forgetPrincipal(deps.db, principal.subject);
    return loginResponse(deps.db, userId);
  },

  async activateUser({ body, principal, deps, request }) {
    // Guessing is counted per person and per address; a success clears the person's count.
    const personKey = principal.subject;
    await deps.rateLimits.activationCodeIp.consume(request.ip);
    await deps.rateLimits.activationCode.consume(personKey);
    const invalid = () =>
      badRequest('activationCode', 'activation_code_invalid', 'The activation code is not valid');
    const hash = hashActivationCode(body.activationCode);
    const response = await inTransaction(deps.db, async (tx) => {
      // The hash stays after activation, so a used code is recognised (409), not "wrong" (400).
      const [pending] = await tx
        .select()
        .from(users)
        .where(eq(users.activationCodeHash, hash))
        .for('update');
      // The code only works for the e-mail address the admin entered.
      if (!pending || pending.email.toLowerCase() !== (principal.email ?? '').toLowerCase()) {
        throw invalid();
      }
      // Used once: also a deactivated account cannot bring itself back with its old code.
      if (pending.active || pending.activatedAt) {
        throw conflict('activation_code_used', 'This activation code has been used already');
      }
      const current = principal.user;
      if (current && current.id !== pending.id) {
        const [linked] = await tx
          .select({ id: clients.id })
          .from(clients)
          .where(eq(clients.userId, current.id));
        if (linked) throw conflict('account_is_client', 'This account belongs to a client');
        // The NONE row of an earlier sign-in gives way to the prepared account.
        await tx.delete(users).where(eq(users.id, current.id));
      }
      const activated = { authSubject: principal.subject, active: true, activatedAt: sql`now()` };
      await updateRecorded(tx, users, pending.id, activated, {
        type: 'user.activated',
        entityType: 'user',
        actor: { ...principal, user: pending },
        coachId: pending.coachId,
        changes: { role: pending.role },
      });
      return loginResponse(tx, pending.id);
    });
    await deps.rateLimits.activationCode.reset(personKey);
    forgetPrincipal(deps.db, principal.subject);
    return response;
  },
});
