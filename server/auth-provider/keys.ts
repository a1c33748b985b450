import { asc, inArray, sql } from 'drizzle-orm';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import type { Db, Tx } from '../db/client';
import { authSigningKeys } from '../db/schema/index';
import { inTransaction } from '../db/transaction';

export const SIGNING_ALGORITHM = 'ES256';

export interface KeyStoreOptions {
  /** Longest life of a token a key signed: its public key stays that long after it stops signing. */
  tokenLifetimeSeconds: number;
  /** A new key pair after this many days (0: only by `npm run auth:rotate-key`). */
  rotationDays: number;
  /**
   * A new key is published this long before it signs, so every instance (which re-reads the
   * keys every `refreshMs`) knows it before tokens signed with it arrive. Default 2 × refreshMs.
   */
  publishDelayMs?: number;
  /** How often the keys are re-read from the database (other instances' rotations). */
  refreshMs?: number;
  now?: () => Date;
  /** A failed background refresh or rotation (the keys in memory stay in use). */
  onError?: (error: unknown) => void;
}

export interface KeyStore {
  /** The key that signs now: the newest published one. */
  readonly signing: { kid: string; key: CryptoKey };
  /** Public parts of the signing key, of newer keys being published, and of retired keys whose tokens may still be alive. */
  jwks(): JSONWebKeySet;
  /** Re-reads the keys (and rotates when due). */
  refresh(): Promise<void>;
  /** Generates a new key pair now; answers its kid. */
  rotate(): Promise<string>;
  /** Stops the refresh timer. */
  stop(): void;
}

type Row = typeof authSigningKeys.$inferSelect;

async function newKeyRow(at: Date) {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return { kid, algorithm: SIGNING_ALGORITHM, publicJwk, privateJwk, createdAt: at.toISOString() };
}

const lock = (tx: Tx) =>
  tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('auth_signing_keys'))`);

/**
 * The keys' timeline, oldest first: each key signs from its publication (created +
 * publishDelay; the very first key at once) until the next key's publication, and stays in
 * the JWKS until its last token expired (tokenLifetime later).
 */
function timeline(
  rows: readonly Row[],
  options: Required<Pick<KeyStoreOptions, 'tokenLifetimeSeconds'>> & { publishDelayMs: number },
) {
  const sorted = [...rows].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  return sorted.map((row, i) => {
    const signsFrom = i === 0 ? -Infinity : Date.parse(row.createdAt) + options.publishDelayMs;
    const next = sorted[i + 1];
    const signsUntil = next ? Date.parse(next.createdAt) + options.publishDelayMs : Infinity;
    return {
      row,
      signsFrom,
      signsUntil,
      publicUntil: signsUntil + options.tokenLifetimeSeconds * 1000,
    };
  });
}

/**
 * Generates a new key pair and deletes keys no live token can need any more. Under the
 * advisory lock; with `ifOlderThanMs` only when the newest key is at least that old (so two
 * instances due at once rotate once).
 */
export async function rotateSigningKey(
  db: Db,
  options: {
    tokenLifetimeSeconds: number;
    publishDelayMs: number;
    now?: Date;
    ifOlderThanMs?: number;
  },
): Promise<string | null> {
  const at = options.now ?? new Date();
  const row = await newKeyRow(at);
  return inTransaction(db, async (tx) => {
    await lock(tx);
    const rows = await tx.select().from(authSigningKeys).orderBy(asc(authSigningKeys.createdAt));
    const newest = rows.at(-1);
    if (
      options.ifOlderThanMs !== undefined &&
      newest &&
      at.getTime() - Date.parse(newest.createdAt) < options.ifOlderThanMs
    ) {
      return null;
    }
    await tx.insert(authSigningKeys).values(row);
    const gone = timeline([...rows, { ...row, createdAt: row.createdAt }], options)
      .filter((k) => k.publicUntil <= at.getTime())
      .map((k) => k.row.kid);
    if (gone.length > 0) await tx.delete(authSigningKeys).where(inArray(authSigningKeys.kid, gone));
    return row.kid;
  });
}

/**
 * Loads the signing keys, creating the first ES256 pair when there is none (under an
 * advisory lock, so instances starting at once make one key), rotates when due, and keeps
 * re-reading them so rotations by other instances or the command reach this one.
 */
export async function loadKeyStore(db: Db, options: KeyStoreOptions): Promise<KeyStore> {
  const now = options.now ?? (() => new Date());
  const refreshMs = options.refreshMs ?? 30_000;
  const publishDelayMs = options.publishDelayMs ?? 2 * refreshMs;
  const settings = { tokenLifetimeSeconds: options.tokenLifetimeSeconds, publishDelayMs };
  const imported = new Map<string, CryptoKey>();

  let rows: Row[] = await inTransaction(db, async (tx) => {
    await lock(tx);
    const existing = await tx.select().from(authSigningKeys);
    if (existing.length > 0) return existing;
    return tx
      .insert(authSigningKeys)
      .values(await newKeyRow(now()))
      .returning();
  });

  let signing: { kid: string; key: CryptoKey } = {
    kid: '',
    key: undefined as unknown as CryptoKey,
  };
  let published: JSONWebKeySet = { keys: [] };
  /** When the JWKS or the signing key changes next by the clock alone. */
  let changesAt = Infinity;

  /** Imports the private keys not imported yet (a handful at most). */
  async function importAll() {
    for (const row of rows) {
      if (!imported.has(row.kid)) {
        imported.set(row.kid, (await importJWK(row.privateJwk as JWK, row.algorithm)) as CryptoKey);
      }
    }
  }

  /** Which key signs and which are published, at this moment. */
  function compute() {
    const at = now().getTime();
    const keys = timeline(rows, settings);
    const current = keys.filter((k) => k.signsFrom <= at).at(-1) ?? keys[0]!;
    signing = { kid: current.row.kid, key: imported.get(current.row.kid)! };
    published = {
      keys: keys
        .filter((k) => k.publicUntil > at)
        .map(({ row }) => ({
          ...(row.publicJwk as JWK),
          kid: row.kid,
          alg: row.algorithm,
          use: 'sig',
        })),
    };
    changesAt = Math.min(
      ...keys.flatMap((k) => [k.signsFrom, k.publicUntil]).filter((t) => t > at),
    );
  }

  async function reload() {
    rows = await db.select().from(authSigningKeys);
    await importAll();
    compute();
  }

  async function rotateIfDue() {
    if (options.rotationDays <= 0) return;
    const interval = options.rotationDays * 24 * 60 * 60 * 1000;
    const newest = Math.max(...rows.map((r) => Date.parse(r.createdAt)));
    if (now().getTime() - newest < interval) return;
    // Another instance may have rotated meanwhile: then nothing is made, and both read it.
    await rotateSigningKey(db, { ...settings, now: now(), ifOlderThanMs: interval });
    await reload();
  }

  await importAll();
  compute();
  await rotateIfDue();

  let refreshing: Promise<void> | null = null;
  const refresh = () =>
    (refreshing ??= (async () => {
      try {
        await reload();
        await rotateIfDue();
      } finally {
        refreshing = null;
      }
    })());
  const timer = setInterval(() => {
    refresh().catch((error: unknown) => options.onError?.(error));
  }, refreshMs);
  timer.unref();

  /** The clock passed a publication or an expiry: recompute. */
  const current = () => {
    if (now().getTime() >= changesAt) compute();
  };

  return {
    get signing() {
      current();
      return signing;
    },
    jwks() {
      current();
      return published;
    },
    refresh,
    async rotate() {
      const kid = (await rotateSigningKey(db, { ...settings, now: now() }))!;
      await reload();
      return kid;
    },
    stop: () => clearInterval(timer),
  };
}
