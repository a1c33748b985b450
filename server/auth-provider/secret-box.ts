import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSecretKeys } from '../db/schema/index';
import { inTransaction } from '../db/transaction';

/** Encrypts small secrets at rest (AES-256-GCM); the key never leaves the process. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('the secret key must have 32 bytes');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      if (!sealed.startsWith('v1.')) throw new Error('unknown secret format');
      const raw = Buffer.from(sealed.slice(3), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const KEY_NAME = 'otp-secrets';

/**
 * The configured key, or the one generated at the first start and kept in
 * `auth_secret_keys` (an advisory lock keeps parallel starts from making two).
 */
export async function loadSecretBox(db: Db, configured: string | undefined): Promise<SecretBox> {
  if (configured) return createSecretBox(Buffer.from(configured, 'base64'));
  const key = await inTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('auth_secret_keys'))`);
    const [row] = await tx.select().from(authSecretKeys).where(eq(authSecretKeys.name, KEY_NAME));
    if (row) return row.key;
    const fresh = randomBytes(32).toString('base64');
    await tx.insert(authSecretKeys).values({ name: KEY_NAME, key: fresh });
    return fresh;
  });
  return createSecretBox(Buffer.from(key, 'base64'));
}
