import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Database } from '../../server/db/client';
import { authSigningKeys } from '../../server/db/schema/index';
import { loadAuthConfig } from '../../server/auth-provider/config';
import { loadKeyStore, rotateSigningKey, type KeyStore } from '../../server/auth-provider/keys';
import { createSessionService } from '../../server/auth-provider/sessions';
import { createTokenVerifier } from '../../server/http/auth';
import { createTestDatabase } from '../../server/testing/test-database';
import { createAuthTestApp, uniqueEmail, type AuthTestApp } from '../support/auth-client';

// Rotation keeps old public keys in the JWKS until their tokens expire.

const LIFETIME_S = 3600;
const PUBLISH_MS = 1_000;
const ISSUER = 'http://localhost:3000/auth';
const AUDIENCE = 'sprechstunde';

let database: Database;
const stores: KeyStore[] = [];
beforeAll(async () => {
  database = await createTestDatabase(
    process.env.DATABASE_URL ? inject('templateDatabase') : undefined,
  );
});
afterAll(async () => {
  for (const store of stores) store.stop();
  await database.close();
});

/** A clock the test moves. */
function clock(start = Date.now()) {
  let at = start;
  return { now: () => new Date(at), advance: (ms: number) => (at += ms), at: () => at };
}

async function store(now: () => Date, rotationDays = 0) {
  const keys = await loadKeyStore(database.db, {
    tokenLifetimeSeconds: LIFETIME_S,
    rotationDays,
    publishDelayMs: PUBLISH_MS,
    refreshMs: 3_600_000,
    now,
  });
  stores.push(keys);
  return keys;
}

function sessionsOf(keys: KeyStore) {
  const auth = { ...loadAuthConfig({}), AUTH_SESSION_LIFETIME_SECONDS: LIFETIME_S };
  return createSessionService({ db: database.db, keys, auth, issuer: ISSUER, audience: AUDIENCE });
}

async function newUser() {
  const { authUsers } = await import('../../server/db/schema/index');
  const [row] = await database.db.insert(authUsers).values({}).returning();
  return row!.id;
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid;
const kids = (keys: KeyStore) => keys.jwks().keys.map((k) => k.kid);

describe('signing-key rotation', () => {
  it('old tokens keep verifying, new tokens use the new key, the old key leaves the JWKS after its tokens expired', async () => {
    await database.db.delete(authSigningKeys);
    const t = clock();
    const keys = await store(t.now);
    const sessions = sessionsOf(keys);
    const product = createTokenVerifier({
      issuer: ISSUER,
      audience: AUDIENCE,
      jwks: async () => keys.jwks(),
      sessionActive: sessions.isActive,
    });
    const userId = await newUser();
    const issue = () =>
      sessions.issue(database.db, {
        userId,
        email: null,
        amr: ['pwd'],
        ip: null,
        userAgent: null,
        now: new Date(),
      });

    const old = await issue();
    const oldKid = kidOf(old.token);
    expect(kids(keys)).toEqual([oldKid]);

    const newKid = await keys.rotate();
    expect(newKid).not.toBe(oldKid);
    // Published at once, signing only after the publication delay.
    expect(kids(keys)).toEqual([oldKid, newKid]);
    expect(kidOf((await issue()).token)).toBe(oldKid);

    t.advance(PUBLISH_MS);
    const fresh = await issue();
    expect(kidOf(fresh.token)).toBe(newKid);
    for (const token of [old.token, fresh.token]) {
      expect(await sessions.verify(token)).toMatchObject({ userId });
      await expect(product(token)).resolves.toMatchObject({ subject: userId });
    }

    // Just before the last token the old key signed can expire, it is still there.
    t.advance(LIFETIME_S * 1000 - 1);
    expect(kids(keys)).toEqual([oldKid, newKid]);
    t.advance(1);
    expect(kids(keys)).toEqual([newKid]);
    expect(await sessions.verify(fresh.token)).toMatchObject({ userId });
    expect(await sessions.verify(old.token)).toBeNull();

    // The next rotation deletes the expired key from the database.
    await rotateSigningKey(database.db, {
      tokenLifetimeSeconds: LIFETIME_S,
      publishDelayMs: PUBLISH_MS,
      now: t.now(),
    });
    const stored = (await database.db.select().from(authSigningKeys)).map((k) => k.kid);
    expect(stored).not.toContain(oldKid);
    expect(stored).toContain(newKid);
  });

  it('rotates by itself after AUTH_KEY_ROTATION_DAYS, once for instances due at the same time', async () => {
    await database.db.delete(authSigningKeys);
    const t = clock();
    const a = await store(t.now, 30);
    const b = await store(t.now, 30);
    expect(kids(b)).toEqual(kids(a));
    const first = a.signing.kid;

    t.advance(29 * 86_400_000);
    await a.refresh();
    expect(kids(a)).toEqual([first]);

    t.advance(2 * 86_400_000);
    await Promise.all([a.refresh(), b.refresh()]);
    expect(await database.db.select().from(authSigningKeys)).toHaveLength(2);
    t.advance(PUBLISH_MS);
    expect(a.signing.kid).not.toBe(first);
    expect(b.signing.kid).toBe(a.signing.kid);
  });

  it('an instance that has not seen a new key yet reads the keys again when a token names it', async () => {
    await database.db.delete(authSigningKeys);
    const t = clock();
    const a = await store(t.now);
    const b = await store(t.now);
    await a.rotate();
    t.advance(PUBLISH_MS);
    const userId = await newUser();
    const issued = await sessionsOf(a).issue(database.db, {
      userId,
      email: null,
      amr: ['pwd'],
      ip: null,
      userAgent: null,
      now: new Date(),
    });
    expect(kids(b)).not.toContain(kidOf(issued.token));
    expect(await sessionsOf(b).verify(issued.token)).toMatchObject({ userId });
    expect(kids(b)).toContain(kidOf(issued.token));
  });
});

describe('over HTTP', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await createAuthTestApp();
  });
  afterAll(() => t.close());

  it('after a rotation the JWKS lists both keys and a session from before still works in the product', async () => {
    const done = await t.register(uniqueEmail('rotation'));
    const token = String(done.headers['x-auth-token']);
    const before = (await t.app.inject({ url: '/auth/.well-known/jwks.json' })).json() as {
      keys: { kid: string }[];
    };
    const newKid = await t.authProvider!.keys.rotate();
    const after = (await t.app.inject({ url: '/auth/.well-known/jwks.json' })).json() as {
      keys: { kid: string }[];
    };
    expect(after.keys.map((k) => k.kid)).toEqual([...before.keys.map((k) => k.kid), newKid]);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(login.statusCode).toBe(200);
    const validate = await t.app.inject({
      url: '/auth/sessions/validate',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(validate.json()).toMatchObject({ is_valid: true });
  });
});
