import bcrypt from 'bcryptjs';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { authPasswordCredentials } from '../db/schema/index';
import { PASSWORD_MAX_BYTES } from './config';

/** bcrypt cost (Hanko uses Go's default, 10). */
export const BCRYPT_COST = 10;

// Compared against when the user is unknown or has no password, so both cost the same time.
const DUMMY_HASH = bcrypt.hashSync('not-a-password-of-anyone', BCRYPT_COST);

/** Why a new password is refused, as an input error code; null when it is fine. */
export function passwordPolicyError(password: string, minLength: number) {
  if ([...password].length < minLength) return 'too_short' as const;
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) return 'too_long' as const;
  return null;
}

export const hashPassword = (password: string) => bcrypt.hash(password, BCRYPT_COST);

/** Checks a password in constant time; false for unknown users too (after the same work). */
export async function checkPassword(tx: Tx | Db, userId: string | null, password: string) {
  const [row] = userId
    ? await tx
        .select({ hash: authPasswordCredentials.hash })
        .from(authPasswordCredentials)
        .where(eq(authPasswordCredentials.userId, userId))
    : [];
  const ok = await bcrypt.compare(password, row?.hash ?? DUMMY_HASH);
  return ok && !!row;
}

export async function hasPassword(tx: Tx | Db, userId: string) {
  const [row] = await tx
    .select({ id: authPasswordCredentials.id })
    .from(authPasswordCredentials)
    .where(eq(authPasswordCredentials.userId, userId));
  return !!row;
}

export async function setPasswordHash(tx: Tx | Db, userId: string, hash: string, now: Date) {
  await tx
    .insert(authPasswordCredentials)
    .values({ userId, hash })
    .onConflictDoUpdate({
      target: authPasswordCredentials.userId,
      set: { hash, updatedAt: now.toISOString() },
    });
}
