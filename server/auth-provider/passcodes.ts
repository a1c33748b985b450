import { randomInt } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { and, desc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { authPasscodes } from '../db/schema/index';
import { BCRYPT_COST } from './passwords';

export type PasscodeCheck = 'ok' | 'invalid' | 'max_attempts';

export const newPasscode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Wrong tries a code shared by several flows takes in all, before no flow accepts it any more
 * and no new flow joins it: each flow has its own tries (AUTH_PASSCODE_MAX_TRIES), and this
 * keeps the guesses on one code bounded however many flows share it.
 */
export const SHARED_CODE_TRIES_FACTOR = 5;

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
    /** The code sealed, kept while it lives so that other flows for the address can share it. */
    sealed: string;
  },
) {
  return insertPasscode(tx, {
    flowId: input.flowId,
    userId: input.userId,
    email: input.email,
    codeHash: await bcrypt.hash(input.code, BCRYPT_COST),
    codeSealed: input.sealed,
    expiresAt: new Date(input.now.getTime() + input.ttlSeconds * 1000).toISOString(),
    resendAfter: new Date(input.now.getTime() + input.resendAfterSeconds * 1000).toISOString(),
    createdAt: input.now.toISOString(),
  });
}

async function insertPasscode(tx: Tx, values: typeof authPasscodes.$inferInsert) {
  const [row] = await tx.insert(authPasscodes).values(values).returning({ id: authPasscodes.id });
  return row!.id;
}

/** The rows of one code: every flow that shares it has one. */
const sameCode = (row: { email: string; codeHash: string }) =>
  and(eq(authPasscodes.email, row.email), eq(authPasscodes.codeHash, row.codeHash));

async function wrongTriesOfCode(tx: Tx, row: { email: string; codeHash: string }) {
  const [sum] = await tx
    .select({ n: sql<number>`coalesce(sum(${authPasscodes.tryCount}), 0)::int` })
    .from(authPasscodes)
    .where(sameCode(row));
  return sum?.n ?? 0;
}

/**
 * The code that lives for `email` (newest, a minute or more left, not guessed at too often), for
 * a new flow to share: answers its sealed form and expiry, or null.
 */
export async function liveCode(tx: Tx, email: string, maxTries: number, now: Date) {
  const [row] = await tx
    .select()
    .from(authPasscodes)
    .where(
      and(
        eq(authPasscodes.email, email),
        // A code about to expire is not handed on: the mail would arrive after it.
        gt(authPasscodes.expiresAt, new Date(now.getTime() + 60_000).toISOString()),
        isNotNull(authPasscodes.codeSealed),
      ),
    )
    .orderBy(desc(authPasscodes.createdAt))
    .limit(1);
  if (!row?.codeSealed) return null;
  if ((await wrongTriesOfCode(tx, row)) >= maxTries * SHARED_CODE_TRIES_FACTOR) return null;
  return row as typeof row & { codeSealed: string };
}

/** This flow's own row of a shared code (its own tries); the code's lifetime stays the code's. */
export async function joinPasscode(
  tx: Tx,
  code: typeof authPasscodes.$inferSelect,
  input: { flowId: string; resendAfterSeconds: number; now: Date },
) {
  return insertPasscode(tx, {
    flowId: input.flowId,
    userId: code.userId,
    email: code.email,
    codeHash: code.codeHash,
    codeSealed: code.codeSealed,
    expiresAt: code.expiresAt,
    resendAfter: new Date(input.now.getTime() + input.resendAfterSeconds * 1000).toISOString(),
    createdAt: input.now.toISOString(),
  });
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
  if ((await wrongTriesOfCode(tx, row)) >= maxTries * SHARED_CODE_TRIES_FACTOR)
    return 'max_attempts';
  const right = await bcrypt.compare(code, row.codeHash);
  if (right && new Date(row.expiresAt) > now) {
    // Used up for every flow that shares it.
    await tx.delete(authPasscodes).where(sameCode(row));
    return 'ok';
  }
  const tries = row.tryCount + 1;
  await tx.update(authPasscodes).set({ tryCount: tries }).where(eq(authPasscodes.id, row.id));
  return tries >= maxTries ? 'max_attempts' : 'invalid';
}
