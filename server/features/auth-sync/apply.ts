import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { authEmails, authUsers, clients, users } from '../../db/schema/index';
import { forgetPrincipal } from '../../http/auth';
import type { Body } from '../../http/handler';
import type { JobQueue } from '../../jobs/queue';
import { recordEvent, updateRecorded } from '../events/index';
import { clientData, emitWebhook } from '../webhooks/index';
import { inTransaction } from '../../db/transaction';

/**
 * A user event of the authentication provider, as the product's contract receives it
 * (receiveAuthUserEvent); the in-process set-up hands over the same shape.
 */
export type AuthUserEvent = Body<'receiveAuthUserEvent'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The product's user (and the client record linked to it) takes the address; answers what
 * changed. Addresses compare case-insensitively (the provider stores them lower-cased). A
 * changed client record queues its `client.updated` webhook in the same transaction.
 */
async function followEmail(
  tx: Tx,
  jobs: JobQueue,
  user: { id: string; email: string },
  email: string,
  via: string,
) {
  let userChanged = false;
  let clientChanged = false;
  if (user.email.toLowerCase() !== email.toLowerCase()) {
    await tx
      .update(users)
      .set({ email, updatedAt: sql`now()` })
      .where(eq(users.id, user.id));
    userChanged = true;
  }
  const [client] = await tx
    .select({ id: clients.id, email: clients.email, coachId: clients.coachedById })
    .from(clients)
    .where(eq(clients.userId, user.id))
    .for('update');
  if (client && client.email?.toLowerCase() !== email.toLowerCase()) {
    await tx
      .update(clients)
      .set({ email, updatedAt: sql`now()` })
      .where(eq(clients.id, client.id));
    await emitWebhook(tx, jobs, 'client.updated', clientData(client.id, client.coachId));
    clientChanged = true;
  }
  if (userChanged || clientChanged) {
    await recordEvent(tx, {
      type: 'user.updated',
      entityType: 'user',
      entityId: user.id,
      clientId: client?.id ?? null,
      important: false,
      changes: { email: { from: user.email, to: email }, via },
    });
  }
  return { userChanged, clientChanged };
}

/**
 * Applies one event of the authentication provider to the product's records:
 * - `user.created`: nothing to store: the product's row is made (or a prepared staff row
 *   claimed) at the first `POST /login`, which needs the person's token anyway.
 * - `user.deleted`: the user row is deactivated, never deleted (events, summaries and
 *   availability keep pointing at it). A linked client record stays with all its data (it is
 *   the practice's record, not the account's) but is unlinked, so a new account proving that
 *   address is linked to it at its first login. A staff row is also unlinked from the subject
 *   and keeps role and coach link: the person's next account claims it, inactive until an
 *   admin activates it.
 * - `user.email_changed`: the user's address, and the linked client record's, follow.
 * Repeats and events about subjects the product does not know change nothing. Each client
 * record that changes (address followed, or unlinked) queues `client.updated` in the same
 * transaction.
 */
export async function applyAuthUserEvent(
  db: Db,
  jobs: JobQueue,
  event: AuthUserEvent,
): Promise<void> {
  if (event.type === 'user.created') return;
  const subject = event.userId;
  await inTransaction(db, async (tx) => {
    const [user] = await tx
      .select({
        id: users.id,
        email: users.email,
        role: users.role,
        active: users.active,
        coachId: users.coachId,
      })
      .from(users)
      .where(eq(users.authSubject, subject))
      .for('update');
    if (!user) return;
    if (event.type === 'user.email_changed') {
      if (event.email) await followEmail(tx, jobs, user, event.email, 'auth_provider');
      return;
    }
    const [client] = await tx
      .update(clients)
      .set({ userId: null, updatedAt: sql`now()` })
      .where(eq(clients.userId, user.id))
      .returning({ id: clients.id, coachId: clients.coachedById });
    if (client)
      await emitWebhook(tx, jobs, 'client.updated', clientData(client.id, client.coachId));
    // Staff: the row waits, unlinked, for the same person's next account (claimed at its first
    // login by the address, inactive until an admin activates it). Anyone else keeps the dead
    // subject: a row the users list treats as "only signed in" and a new account replaces.
    const staff = user.role !== 'NONE';
    const values = { active: false, ...(staff ? { authSubject: null } : {}) };
    await updateRecorded(tx, users, user.id, values, {
      type: 'user.updated',
      entityType: 'user',
      clientId: client?.id ?? null,
      coachId: user.coachId,
      changes: {
        via: 'auth_account_deleted',
        active: { from: user.active, to: false },
        ...(client ? { clientUnlinked: client.id } : {}),
      },
    });
  });
  forgetPrincipal(db, subject);
}

export interface AuthEmailSyncResult {
  checked: number;
  usersUpdated: number;
  clientsUpdated: number;
  missing: number;
}

/**
 * Compares every linked user's address with the primary address of their provider account
 * (the provider's tables in this database) and corrects drift. A subject without a provider
 * account is only counted: with a provider elsewhere that would be every user, and a deletion
 * reaches the product as an event.
 */
export async function syncAuthEmails(db: Db, jobs: JobQueue): Promise<AuthEmailSyncResult> {
  const linked = await db
    .select({ id: users.id, email: users.email, subject: users.authSubject })
    .from(users)
    .where(isNotNull(users.authSubject));
  const result: AuthEmailSyncResult = {
    checked: 0,
    usersUpdated: 0,
    clientsUpdated: 0,
    missing: 0,
  };
  const BATCH = 500;
  for (let i = 0; i < linked.length; i += BATCH) {
    const batch = linked.slice(i, i + BATCH);
    const subjects = batch.map((u) => u.subject!).filter((s) => UUID.test(s));
    const primaries = subjects.length
      ? await db
          .select({ userId: authUsers.id, address: authEmails.address })
          .from(authUsers)
          .innerJoin(
            authEmails,
            and(eq(authEmails.userId, authUsers.id), eq(authEmails.isPrimary, true)),
          )
          .where(inArray(authUsers.id, subjects))
      : [];
    const primaryOf = new Map(primaries.map((p) => [p.userId, p.address]));
    const clientRows = await db
      .select({ userId: clients.userId, email: clients.email })
      .from(clients)
      .where(
        inArray(
          clients.userId,
          batch.map((u) => u.id),
        ),
      );
    const clientEmailOf = new Map(clientRows.map((c) => [c.userId, c.email]));
    const same = (a: string | null | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();
    for (const user of batch) {
      result.checked += 1;
      const email = primaryOf.get(user.subject!);
      if (!email) {
        result.missing += 1;
        continue;
      }
      const clientEmail = clientEmailOf.get(user.id);
      if (same(user.email, email) && (clientEmail === undefined || same(clientEmail, email)))
        continue;
      const changed = await inTransaction(db, async (tx) => {
        // Read again under the lock: an event may have moved it meanwhile.
        const [current] = await tx
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(eq(users.id, user.id))
          .for('update');
        return current ? followEmail(tx, jobs, current, email, 'auth_email_sync') : null;
      });
      if (changed?.userChanged) result.usersUpdated += 1;
      if (changed?.clientChanged) result.clientsUpdated += 1;
      if (changed?.userChanged) forgetPrincipal(db, user.subject);
    }
  }
  return result;
}
