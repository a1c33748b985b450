import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import {
  authEmails,
  authPasswordCredentials,
  authSessions,
  authUsernames,
  authUsers,
} from '../db/schema/index';

type Conn = Tx | Db;

// Account management shared by the profile flow and the legacy REST calls. Every function
// takes the user id of the caller's session, so ownership is part of each query.

export async function emailsOf(tx: Conn, userId: string) {
  return tx
    .select()
    .from(authEmails)
    .where(eq(authEmails.userId, userId))
    .orderBy(asc(authEmails.createdAt), asc(authEmails.id));
}

export type EmailRow = Awaited<ReturnType<typeof emailsOf>>[number];

/** The wire shape (openapi `Email`). */
export const wireEmail = (e: EmailRow) => ({
  id: e.id,
  address: e.address,
  is_verified: e.verified,
  is_primary: e.isPrimary,
});

/** The primary address and the last one stay; every other address of the user may go. */
export function deletableEmails(emails: readonly EmailRow[]) {
  if (emails.length <= 1) return [];
  return emails.filter((e) => !e.isPrimary);
}

/** Verified addresses that could become primary. */
export const primaryCandidates = (emails: readonly EmailRow[]) =>
  emails.filter((e) => e.verified && !e.isPrimary);

export async function emailCount(tx: Conn, userId: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(authEmails)
    .where(eq(authEmails.userId, userId));
  return row?.n ?? 0;
}

/** Adds an address (primary when it is the user's first). The caller checked it is free. */
export async function addEmail(
  tx: Conn,
  userId: string,
  address: string,
  verified: boolean,
  now: Date,
) {
  const at = now.toISOString();
  const first = (await emailCount(tx, userId)) === 0;
  const [row] = await tx
    .insert(authEmails)
    .values({
      userId,
      address: address.toLowerCase(),
      isPrimary: first,
      verified,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  await touchUser(tx, userId, now);
  return row!;
}

export async function setPrimaryEmail(tx: Conn, userId: string, emailId: string, now: Date) {
  const at = now.toISOString();
  // The old primary first: one primary per user is a unique index.
  await tx
    .update(authEmails)
    .set({ isPrimary: false, updatedAt: at })
    .where(
      and(
        eq(authEmails.userId, userId),
        eq(authEmails.isPrimary, true),
        ne(authEmails.id, emailId),
      ),
    );
  await tx
    .update(authEmails)
    .set({ isPrimary: true, updatedAt: at })
    .where(and(eq(authEmails.userId, userId), eq(authEmails.id, emailId)));
  await touchUser(tx, userId, now);
}

export async function deleteEmail(tx: Conn, userId: string, emailId: string, now: Date) {
  await tx.delete(authEmails).where(and(eq(authEmails.userId, userId), eq(authEmails.id, emailId)));
  await touchUser(tx, userId, now);
}

export async function markVerified(tx: Conn, userId: string, emailId: string, now: Date) {
  await tx
    .update(authEmails)
    .set({ verified: true, updatedAt: now.toISOString() })
    .where(and(eq(authEmails.userId, userId), eq(authEmails.id, emailId)));
}

export async function usernameOf(tx: Conn, userId: string) {
  const [row] = await tx.select().from(authUsernames).where(eq(authUsernames.userId, userId));
  return row ?? null;
}

export async function setUsername(tx: Conn, userId: string, username: string, now: Date) {
  await tx
    .insert(authUsernames)
    .values({ userId, username })
    .onConflictDoUpdate({
      target: authUsernames.userId,
      set: { username, updatedAt: now.toISOString() },
    });
  await touchUser(tx, userId, now);
}

export async function deleteUsername(tx: Conn, userId: string, now: Date) {
  await tx.delete(authUsernames).where(eq(authUsernames.userId, userId));
  await touchUser(tx, userId, now);
}

export async function deletePassword(tx: Conn, userId: string, now: Date) {
  await tx.delete(authPasswordCredentials).where(eq(authPasswordCredentials.userId, userId));
  await touchUser(tx, userId, now);
}

/** Ends one of the user's sessions (never someone else's: the user id is in the query). */
export async function deleteSession(tx: Conn, userId: string, sessionId: string) {
  await tx
    .delete(authSessions)
    .where(and(eq(authSessions.userId, userId), eq(authSessions.id, sessionId)));
}

export async function touchUser(tx: Conn, userId: string, now: Date) {
  await tx.update(authUsers).set({ updatedAt: now.toISOString() }).where(eq(authUsers.id, userId));
}

/**
 * Deletes the identity: e-mails, username, password, passcodes and sessions go with the
 * user row (foreign keys cascade). Answers the ids of the ended sessions, so the caller can
 * drop them from the session cache after the commit.
 */
export async function deleteAccount(tx: Conn, userId: string): Promise<string[]> {
  const sessions = await tx
    .select({ id: authSessions.id })
    .from(authSessions)
    .where(eq(authSessions.userId, userId));
  await tx.delete(authSessions).where(eq(authSessions.userId, userId));
  await tx.delete(authUsers).where(eq(authUsers.id, userId));
  return sessions.map((s) => s.id);
}
