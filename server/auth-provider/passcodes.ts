import { randomInt } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { authPasscodes } from '../db/schema/index';
import { BCRYPT_COST } from './passwords';

export type PasscodeCheck = 'ok' | 'invalid' | 'max_attempts';

export const newPasscode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export async function createPasscode(
  tx: Tx,
  input: {
    flowId: string;
    userId: string | null;
    email: string;
    code: string;
    ttlSeconds: number;
    resendAfterSeconds: number;
    now: Date;
  },
) {
  const [row] = await tx
    .insert(authPasscodes)
    .values({
      flowId: input.flowId,
      userId: input.userId,
      email: input.email,
      codeHash: await bcrypt.hash(input.code, BCRYPT_COST),
      expiresAt: new Date(input.now.getTime() + input.ttlSeconds * 1000).toISOString(),
      resendAfter: new Date(input.now.getTime() + input.resendAfterSeconds * 1000).toISOString(),
      createdAt: input.now.toISOString(),
    })
    .returning({ id: authPasscodes.id });
  return row!.id;
}

export async function findPasscode(tx: Tx, id: string) {
  const [row] = await tx.select().from(authPasscodes).where(eq(authPasscodes.id, id));
  return row ?? null;
}

/** A code still worth reusing: same address, not expired, tries left. */
export function isUsable(
  row: typeof authPasscodes.$inferSelect | null,
  email: string,
  maxTries: number,
  now: Date,
) {
  return !!row && row.email === email && new Date(row.expiresAt) > now && row.tryCount < maxTries;
}

/**
 * Checks a code. Wrong, expired or unknown codes are `invalid`; the try that reaches
 * `maxTries` wrong ones, and every try after, is `max_attempts` (the code is dead).
 * A right code is used up.
 */
export async function checkPasscode(
  tx: Tx,
  id: string | undefined,
  code: string,
  maxTries: number,
  now: Date,
): Promise<PasscodeCheck> {
  const row = id ? await findPasscode(tx, id) : null;
  if (!row) {
    await bcrypt.compare(code, '$2b$10$invalidinvalidinvalidinvalidinvalidinvalidinvalidinv');
    return 'invalid';
  }
  if (row.tryCount >= maxTries) return 'max_attempts';
  const right = await bcrypt.compare(code, row.codeHash);
  if (right && new Date(row.expiresAt) > now) {
    await tx.delete(authPasscodes).where(eq(authPasscodes.id, row.id));
    return 'ok';
  }
  const tries = row.tryCount + 1;
  await tx.update(authPasscodes).set({ tryCount: tries }).where(eq(authPasscodes.id, row.id));
  return tries >= maxTries ? 'max_attempts' : 'invalid';
}
