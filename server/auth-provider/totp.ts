import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db, Tx } from '../db/client';
import { authDeviceTokens, authOtpSecrets } from '../db/schema/index';
import type { SecretBox } from './secret-box';

type Conn = Tx | Db;

const PERIOD = 30;

/** A new base32 secret (160 bits, RFC 4226's recommendation). */
export const newOtpSecret = () => new Secret({ size: 20 }).base32;

function totp(secret: string, issuer: string, label: string) {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** The `otpauth://` URI as a 200×200 PNG QR code (data URL) for authenticator apps. */
export async function otpImage(secret: string, issuer: string, label: string) {
  return QRCode.toDataURL(totp(secret, issuer, label).toString(), { width: 200, margin: 1 });
}

/**
 * The time step a 6-digit code belongs to (the current one, or one either side for clock
 * drift), or null when it fits none.
 */
export function otpStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    timestamp: now.getTime(),
    window: 1,
  });
  if (delta === null) return null;
  return TOTP.counter({ period: PERIOD, timestamp: now.getTime() }) + delta;
}

export async function otpSecretOf(tx: Conn, userId: string) {
  const [row] = await tx.select().from(authOtpSecrets).where(eq(authOtpSecrets.userId, userId));
  return row ?? null;
}

/** Stores the user's secret (already sealed) and the step of the code that confirmed it. */
export async function saveOtpSecret(tx: Conn, userId: string, sealed: string, step: number) {
  await tx
    .insert(authOtpSecrets)
    .values({ userId, secretEncrypted: sealed, lastUsedStep: step })
    .onConflictDoUpdate({
      target: authOtpSecrets.userId,
      set: { secretEncrypted: sealed, lastUsedStep: step },
    });
}

export async function deleteOtpSecret(tx: Conn, userId: string) {
  await tx.delete(authOtpSecrets).where(eq(authOtpSecrets.userId, userId));
}

export type OtpCheck = 'ok' | 'invalid' | 'already_used';

/** Checks a login code; a step at or before the last accepted one is a replay. */
export async function checkOtp(
  tx: Conn,
  box: SecretBox,
  userId: string,
  code: string,
  now: Date,
): Promise<OtpCheck> {
  const row = await otpSecretOf(tx, userId);
  if (!row) return 'invalid';
  const step = otpStep(box.open(row.secretEncrypted), code, now);
  if (step === null) return 'invalid';
  if (row.lastUsedStep !== null && step <= row.lastUsedStep) return 'already_used';
  await tx.update(authOtpSecrets).set({ lastUsedStep: step }).where(eq(authOtpSecrets.id, row.id));
  return 'ok';
}

// Device trust: the cookie holds `userId:token` pairs separated by `|`; the database keeps
// SHA-256 hashes of the tokens.

const MAX_USERS_PER_DEVICE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export function parseDeviceCookie(value: string | undefined): { userId: string; token: string }[] {
  if (!value) return [];
  return decodeURIComponent(value)
    .split('|')
    .map((pair) => {
      const [userId = '', token = ''] = pair.split(':');
      return { userId, token };
    })
    .filter((p) => UUID.test(p.userId) && /^[\w-]{20,100}$/.test(p.token))
    .slice(-MAX_USERS_PER_DEVICE);
}

/** Is this device trusted for the user (a live token for them in the cookie)? */
export async function deviceTrusted(
  tx: Conn,
  cookie: string | undefined,
  userId: string,
  now: Date,
) {
  const mine = parseDeviceCookie(cookie).filter((p) => p.userId === userId);
  if (mine.length === 0) return false;
  const rows = await tx
    .select({ id: authDeviceTokens.id })
    .from(authDeviceTokens)
    .where(
      and(
        eq(authDeviceTokens.userId, userId),
        inArray(
          authDeviceTokens.tokenHash,
          mine.map((p) => hashToken(p.token)),
        ),
        gt(authDeviceTokens.expiresAt, now.toISOString()),
      ),
    );
  return rows.length > 0;
}

/**
 * Trusts the device for the user: a new token, stored hashed; answers the new cookie value
 * (the user's old pair replaced, at most 20 users, the oldest dropped).
 */
export async function trustDevice(
  tx: Conn,
  cookie: string | undefined,
  userId: string,
  days: number,
  now: Date,
) {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(authDeviceTokens).values({
    userId,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + days * 86_400_000).toISOString(),
    createdAt: now.toISOString(),
  });
  const pairs = [
    ...parseDeviceCookie(cookie).filter((p) => p.userId !== userId),
    { userId, token },
  ];
  return pairs
    .slice(-MAX_USERS_PER_DEVICE)
    .map((p) => `${p.userId}:${p.token}`)
    .join('|');
}
