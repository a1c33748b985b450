import { and, eq } from 'drizzle-orm';
import { authSessions } from '../db/schema/index';
import type { Tx } from '../db/client';
import type { RateLimiters } from '../http/rate-limit';
import type { RequestInfo } from './flow/types';
import { overLimit } from './over-limit';
import { deviceTrusted } from './totp';
import { findUserByEmail } from './users';

/**
 * Passcode requests are limited in three ways:
 *
 * - per caller (IP address) and address (passcodeSend, 3 a minute, and passcodeSendCaller, 10 a
 *   quarter-hour): each caller's own allowance, so a stranger who uses his up leaves the
 *   owner's untouched (passcodeCallerWait);
 * - one live code per address: a request while a code lives gets that code, mailed again only
 *   while the address has had fewer than passcodeMailAddress mails this hour. So a flood of
 *   requests issues no new codes and fills no mailbox, and the owner asking from anywhere
 *   gets the code that is already in his mailbox;
 * - new codes asked by callers not recognised as the owner's share a ceiling per address
 *   (passcodeSendAddress, newCodeWait); the owner's own devices are not refused by it.
 */
/** What the limits need of a flow step (flows/shared.ts passes its context). */
export interface PasscodeCaller {
  env: { tx: Tx; rateLimits: RateLimiters };
  request: Pick<RequestInfo, 'ip' | 'deviceCookie'>;
  now: Date;
}

/** Seconds this caller must wait before asking for a code for `email` again, or null (counted). */
export async function passcodeCallerWait(
  ctx: PasscodeCaller,
  email: string,
): Promise<number | null> {
  const { rateLimits } = ctx.env;
  const caller = `${ctx.request.ip}|${email}`;
  return (
    (await overLimit(rateLimits.passcodeSend, caller)) ??
    (await overLimit(rateLimits.passcodeSendCaller, caller))
  );
}

/** Seconds to wait before a new code for `email` may be issued to this caller, or null (counted). */
export async function newCodeWait(ctx: PasscodeCaller, email: string): Promise<number | null> {
  if (await ownersCaller(ctx, email)) return null;
  return overLimit(ctx.env.rateLimits.passcodeSendAddress, email);
}

/** Counts one passcode mail to `email`; answers whether it stayed within the hourly cap. */
export async function mailWithinCap(ctx: PasscodeCaller, email: string): Promise<boolean> {
  return (await overLimit(ctx.env.rateLimits.passcodeMailAddress, email)) === null;
}

/**
 * The caller is the address owner's: the address is verified (a claim someone added but
 * never confirmed proves nothing) and its user has signed in from this IP address (a session
 * row, live or ended, still kept) or trusts this device (the device-trust cookie).
 */
async function ownersCaller(ctx: PasscodeCaller, email: string): Promise<boolean> {
  const { tx } = ctx.env;
  const owner = await findUserByEmail(tx, email);
  if (!owner?.verified) return false;
  const [session] = await tx
    .select({ id: authSessions.id })
    .from(authSessions)
    .where(and(eq(authSessions.userId, owner.userId), eq(authSessions.ipAddress, ctx.request.ip)))
    .limit(1);
  return !!session || (await deviceTrusted(tx, ctx.request.deviceCookie, owner.userId, ctx.now));
}
