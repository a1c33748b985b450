import { and, eq } from 'drizzle-orm';
import { authSessions } from '../db/schema/index';
import type { Tx } from '../db/client';
import type { RateLimiters } from '../http/rate-limit';
import type { RequestInfo } from './flow/types';
import { overLimit } from './over-limit';
import { deviceTrusted } from './totp';
import { findUserByEmail } from './users';

/**
 * How long to wait before another passcode mail to `email` may go out from this caller, or
 * null when it may go now (the points are counted then).
 *
 * Each caller (IP address) has its own allowance per address (passcodeSend, 3 a minute, and
 * passcodeSendCaller, 10 a quarter-hour), so a stranger who uses his up leaves the owner's
 * untouched. All callers who are not recognised as the owner share a ceiling per address
 * (passcodeSendAddress), which keeps a distributed attack from flooding the mailbox; the
 * owner's own devices do not count against it and are not refused by it.
 */
/** What the limits need of a flow step (flows/shared.ts passes its context). */
export interface PasscodeCaller {
  env: { tx: Tx; rateLimits: RateLimiters };
  request: Pick<RequestInfo, 'ip' | 'deviceCookie'>;
  now: Date;
}

export async function passcodeSendWait(ctx: PasscodeCaller, email: string): Promise<number | null> {
  const { rateLimits } = ctx.env;
  const caller = `${ctx.request.ip}|${email}`;
  const wait =
    (await overLimit(rateLimits.passcodeSend, caller)) ?? (await overLimit(rateLimits.passcodeSendCaller, caller));
  if (wait !== null) return wait;
  if (await ownersCaller(ctx, email)) return null;
  return overLimit(rateLimits.passcodeSendAddress, email);
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
