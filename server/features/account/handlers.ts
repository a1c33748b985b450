import { and, eq, isNull, sql } from 'drizzle-orm';
import { clients, coaches, users } from '../../db/schema/index';
import type { Db, Tx } from '../../db/client';
import type { Principal } from '../../http/auth';
import { defineHandlers } from '../../http/handler';
import { badRequest, conflict } from '../../http/problem';
import { recordEvent } from '../events/record';
import { hashActivationCode } from '../users/codes';

async function loginResponse(db: Db | Tx, userId: string) {
  const [row] = await db
    .select({
      userId: users.id,
      role: users.role,
      active: users.active,
      coachId: coaches.id,
      coachFirstName: coaches.firstName,
      coachLastName: coaches.lastName,
    })
    .from(users)
    .leftJoin(coaches, eq(coaches.id, users.coachId))
    .where(eq(users.id, userId));
  if (!row) throw new Error('user vanished');
  return {
    userId: row.userId,
    role: row.role,
    active: row.active,
    coach: row.coachId ? { id: row.coachId, name: `${row.coachFirstName} ${row.coachLastName}` } : null,
  };
}

/**
 * First sign-in: a row an admin prepared for this e-mail (staff) is claimed by the
 * caller's subject; anyone else gets a new row with role NONE.
 */
async function userFor(db: Db, principal: Principal): Promise<string> {
  if (principal.user) return principal.user.id;
  return db.transaction(async (tx) => {
    const [prepared] = principal.email
      ? await tx
          .update(users)
          .set({ authSubject: principal.subject, updatedAt: sql`now()` })
          .where(
            and(
              isNull(users.authSubject),
              sql`lower(${users.email}) = lower(${principal.email})`,
            ),
          )
          .returning({ id: users.id })
      : [];
    // A client signed up with this e-mail: the new account is theirs, and active.
    const [client] =
      !prepared && principal.email
        ? await tx
            .select({ id: clients.id })
            .from(clients)
            .where(and(isNull(clients.userId), sql`lower(${clients.email}) = lower(${principal.email})`))
            .limit(1)
            .for('update')
        : [];
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
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.authSubject, principal.subject));
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
    return loginResponse(deps.db, await userFor(deps.db, principal));
  },

  async activateUser({ body, principal, deps }) {
    const invalid = () =>
      badRequest('activationCode', 'activation_code_invalid', 'The activation code is not valid');
    const hash = hashActivationCode(body.activationCode);
    return deps.db.transaction(async (tx) => {
      const [pending] = await tx
        .select()
        .from(users)
        .where(and(eq(users.activationCodeHash, hash), eq(users.active, false)))
        .for('update');
      // The code only works for the e-mail address the admin entered.
      if (!pending || pending.email.toLowerCase() !== (principal.email ?? '').toLowerCase()) {
        throw invalid();
      }
      const current = principal.user;
      if (current && current.id !== pending.id) {
        const [linked] = await tx.select({ id: clients.id }).from(clients).where(eq(clients.userId, current.id));
        if (linked) throw conflict('account_is_client', 'This account belongs to a client');
        await tx.delete(users).where(eq(users.id, current.id));
      }
      await tx
        .update(users)
        .set({
          authSubject: principal.subject,
          active: true,
          activatedAt: sql`now()`,
          activationCodeHash: null,
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, pending.id));
      await recordEvent(tx, {
        type: 'user.activated',
        entityType: 'user',
        entityId: pending.id,
        actor: { ...principal, user: pending },
        coachId: pending.coachId,
        changes: { role: pending.role },
      });
      return loginResponse(tx, pending.id);
    });
  },
});
