import { desc, sql } from 'drizzle-orm';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import type { Db } from '../db/client';
import { authSigningKeys } from '../db/schema/index';

export const SIGNING_ALGORITHM = 'ES256';

export interface KeyStore {
  /** The newest key signs. */
  signing: { kid: string; key: CryptoKey };
  /** Public parts of every stored key (older ones verify tokens issued before a rotation). */
  jwks(): JSONWebKeySet;
}

/**
 * Loads the signing keys, creating the first ES256 pair when there is none. An advisory
 * lock keeps two instances starting at once from creating two "first" keys.
 */
export async function loadKeyStore(db: Db): Promise<KeyStore> {
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('auth_signing_keys'))`);
    const existing = await tx.select().from(authSigningKeys).orderBy(desc(authSigningKeys.createdAt));
    if (existing.length > 0) return existing;
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const privateJwk = await exportJWK(privateKey);
    return tx
      .insert(authSigningKeys)
      .values({ kid, algorithm: SIGNING_ALGORITHM, publicJwk, privateJwk })
      .returning();
  });
  const newest = rows[0]!;
  const key = (await importJWK(newest.privateJwk as JWK, newest.algorithm)) as CryptoKey;
  const keys: JSONWebKeySet = {
    keys: rows.map((row) => ({
      ...(row.publicJwk as JWK),
      kid: row.kid,
      alg: row.algorithm,
      use: 'sig',
    })),
  };
  return { signing: { kid: newest.kid, key }, jwks: () => keys };
}
