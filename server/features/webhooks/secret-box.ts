import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { webhooks } from '../../db/schema/index';

/**
 * Signing secrets at rest: AES-256-GCM with a key derived (HKDF-SHA-256) from
 * WEBHOOK_SECRET_KEY. A stored value reads `wsk1.<key id>.<iv>.<ciphertext>.<tag>` (base64url);
 * the key id (8 hex digits of the derived key's SHA-256) says which key sealed it, so a value
 * sealed with WEBHOOK_SECRET_KEY_PREVIOUS still opens after the key changed. The webhook type
 * is the additional data: a value copied to another type's row does not open. Values written
 * before secrets were sealed (`whsec_…` in clear) are read as they are, and sealed at the
 * next start (sealStoredSecrets).
 */
export interface SecretKeyring {
  current: { id: string; key: Buffer };
  previous: { id: string; key: Buffer } | null;
}

const PREFIX = 'wsk1';
const INFO = 'sprechstunde webhook signing secrets v1';

function derive(material: string) {
  const key = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), INFO, 32));
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

export type KeyConfig = Pick<Config, 'WEBHOOK_SECRET_KEY' | 'WEBHOOK_SECRET_KEY_PREVIOUS'>;

const derived = new Map<string, SecretKeyring>();

/** The keyring of a configuration (derived once per pair of keys). */
export function keyringOf(config: KeyConfig): SecretKeyring {
  const cacheKey = `${config.WEBHOOK_SECRET_KEY}\u0000${config.WEBHOOK_SECRET_KEY_PREVIOUS ?? ''}`;
  let keyring = derived.get(cacheKey);
  if (!keyring) {
    keyring = {
      current: derive(config.WEBHOOK_SECRET_KEY),
      previous: config.WEBHOOK_SECRET_KEY_PREVIOUS
        ? derive(config.WEBHOOK_SECRET_KEY_PREVIOUS)
        : null,
    };
    derived.set(cacheKey, keyring);
  }
  return keyring;
}

const b64 = (b: Buffer) => b.toString('base64url');

/** Seals a secret for the row of `type`. */
export function sealSecret(keyring: SecretKeyring, type: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyring.current.key, iv);
  cipher.setAAD(Buffer.from(type));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [PREFIX, keyring.current.id, b64(iv), b64(body), b64(cipher.getAuthTag())].join('.');
}

export const isSealed = (stored: string) => stored.startsWith(`${PREFIX}.`);

/** Sealed with a key other than the current one (or not sealed at all). */
export const needsSealing = (keyring: SecretKeyring, stored: string) =>
  !stored.startsWith(`${PREFIX}.${keyring.current.id}.`);

export class SecretUnreadable extends Error {
  override name = 'SecretUnreadable';
}

/** The secret in a stored value: sealed ones opened, old clear ones as they are. */
export function openSecret(keyring: SecretKeyring, type: string, stored: string): string {
  if (!isSealed(stored)) return stored;
  const [, id, iv, body, tag] = stored.split('.');
  const key = [keyring.current, keyring.previous].find((k) => k?.id === id)?.key;
  if (!key || !iv || !body || !tag) {
    throw new SecretUnreadable(`webhook secret sealed with an unknown key (${id})`);
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(type));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new SecretUnreadable('webhook secret does not open with its key');
  }
}

/**
 * Seals every stored secret that is still in clear text or sealed with an older key (at start,
 * after the migrations). Each row is written only if it still holds what was read, so two
 * instances starting at once do not undo each other. Answers how many rows were sealed. A
 * value that opens with none of the keys is left as it is (the server still starts; its
 * deliveries are logged as failed until the key is set again or the secret rotated) and its
 * type reported to `onUnreadable`.
 */
export async function sealStoredSecrets(
  db: Db,
  config: KeyConfig,
  onUnreadable: (type: string) => void = () => {},
): Promise<number> {
  const keyring = keyringOf(config);
  const rows = await db
    .select({
      id: webhooks.id,
      type: webhooks.type,
      secret: webhooks.secret,
      previousSecret: webhooks.previousSecret,
    })
    .from(webhooks);
  let sealed = 0;
  for (const row of rows) {
    let unreadable = false;
    const reseal = (stored: string | null) => {
      if (stored === null || !needsSealing(keyring, stored)) return stored;
      try {
        return sealSecret(keyring, row.type, openSecret(keyring, row.type, stored));
      } catch (error) {
        if (!(error instanceof SecretUnreadable)) throw error;
        unreadable = true;
        return stored;
      }
    };
    const secret = reseal(row.secret);
    const previousSecret = reseal(row.previousSecret);
    if (unreadable) onUnreadable(row.type);
    if (secret === row.secret && previousSecret === row.previousSecret) continue;
    const same = (
      column: typeof webhooks.secret | typeof webhooks.previousSecret,
      value: string | null,
    ) => (value === null ? isNull(column) : eq(column, value));
    const updated = await db
      .update(webhooks)
      .set({ secret, previousSecret })
      .where(
        and(
          eq(webhooks.id, row.id),
          same(webhooks.secret, row.secret),
          same(webhooks.previousSecret, row.previousSecret),
        ),
      )
      .returning({ id: webhooks.id });
    sealed += updated.length;
  }
  return sealed;
}
