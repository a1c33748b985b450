import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authEmails, authSessions, authUsers } from '../../server/db/schema/index';
import {
  createAuthTestApp,
  expectSchema,
  uniqueEmail,
  type AuthTestApp,
} from '../support/auth-client';

let t: AuthTestApp;
beforeAll(async () => {
  t = await createAuthTestApp();
});
afterAll(() => t.close());

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A REST call under /auth; error bodies are checked against the contract's HttpError. */
async function call(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options: { token?: string; body?: unknown } = {},
) {
  const res = await t.app.inject({
    method,
    url: `/auth${url}`,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
  });
  const json = res.body ? JSON.parse(res.body) : undefined;
  if (res.statusCode >= 400) {
    await expectSchema('HttpError', json);
    expect(json.code).toBe(res.statusCode);
  }
  return { status: res.statusCode, json, headers: res.headers };
}

async function person() {
  const email = uniqueEmail('rest');
  const done = await t.register(email);
  return {
    email,
    token: String(done.headers['x-auth-token']),
    userId: done.payload!.user.id as string,
  };
}

describe('session required', () => {
  it.each([
    ['GET', '/me'],
    ['GET', `/users/${UNKNOWN_ID}`],
    ['DELETE', '/user'],
    ['POST', '/logout'],
    ['GET', '/emails'],
    ['POST', '/emails'],
    ['POST', `/emails/${UNKNOWN_ID}/set_primary`],
    ['DELETE', `/emails/${UNKNOWN_ID}`],
  ] as const)('%s %s answers 401 without a session', async (method, url) => {
    const res = await call(
      method,
      url,
      method === 'POST' && url === '/emails' ? { body: { address: 'a@b.de' } } : {},
    );
    expect(res).toMatchObject({ status: 401, json: { code: 401, message: 'Unauthorized' } });
    const bad = await call(method, url, { token: 'kaputt' });
    expect(bad.status).toBe(401);
  });
});

describe('users', () => {
  it('GET /me and GET /users/{id} answer the caller; other ids are 403, bad ids 400', async () => {
    const a = await person();
    const b = await person();
    const me = await call('GET', '/me', { token: a.token });
    expect(me.status).toBe(200);
    await expectSchema('ProfileData', me.json);
    expect(me.json.id).toBe(a.userId);

    const own = await call('GET', `/users/${a.userId}`, { token: a.token });
    expect(own.status).toBe(200);
    await expectSchema('LegacyUser', own.json);
    expect(own.json).toMatchObject({ id: a.userId, email: a.email, webauthn_credentials: [] });

    expect((await call('GET', `/users/${b.userId}`, { token: a.token })).status).toBe(403);
    expect((await call('GET', `/users/${UNKNOWN_ID}`, { token: a.token })).status).toBe(403);
    const bad = await call('GET', '/users/kein-uuid', { token: a.token });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/^id: /);
  });

  it('POST /user looks nobody up without existence hints (no enumeration)', async () => {
    const a = await person();
    const known = await call('POST', '/user', { body: { email: a.email } });
    const unknown = await call('POST', '/user', { body: { email: uniqueEmail('nobody') } });
    expect(known.status).toBe(404);
    expect(unknown.status).toBe(404);
    const bad = await call('POST', '/user', { body: { email: 'kein-at' } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/^email: /);
    expect((await call('POST', '/user', { body: {} })).json.message).toBe(
      'email: value_missing_error',
    );
  });

  it('POST /user with existence hints answers as Hanko did', async () => {
    const app = await createAuthTestApp({ env: { AUTH_SHOW_ACCOUNT_EXISTENCE_HINTS: 'true' } });
    try {
      const email = uniqueEmail('hint');
      const done = await app.register(email);
      const res = await app.app.inject({ method: 'POST', url: '/auth/user', payload: { email } });
      expect(res.statusCode).toBe(200);
      await expectSchema('UserInfo', res.json());
      expect(res.json()).toMatchObject({
        id: done.payload!.user.id,
        verified: true,
        has_webauthn_credential: false,
      });
      const unknown = await app.app.inject({
        method: 'POST',
        url: '/auth/user',
        payload: { email: uniqueEmail('x') },
      });
      expect(unknown.statusCode).toBe(404);
      // With hints, a taken address is a 409 at POST /users.
      const taken = await app.app.inject({
        method: 'POST',
        url: '/auth/users',
        payload: { email },
      });
      expect(taken.statusCode).toBe(409);
      await expectSchema('HttpError', taken.json());
    } finally {
      await app.close();
    }
  });

  it('POST /user and POST /users are rate-limited per IP (429 with Retry-After)', async () => {
    const app = await createAuthTestApp({
      rateLimits: { authAccountLookup: { points: 2, durationSeconds: 60 } },
    });
    try {
      const hit = () =>
        app.app.inject({
          method: 'POST',
          url: '/auth/user',
          payload: { email: uniqueEmail('rl') },
        });
      expect((await hit()).statusCode).toBe(404);
      expect((await hit()).statusCode).toBe(404);
      const over = await app.app.inject({
        method: 'POST',
        url: '/auth/users',
        payload: { email: uniqueEmail('rl') },
      });
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      await expectSchema('HttpError', over.json());
    } finally {
      await app.close();
    }
  });

  it('POST /users creates an unverified user; a taken address looks new and creates nothing', async () => {
    const email = uniqueEmail('created');
    const res = await call('POST', '/users', { body: { email: `  ${email.toUpperCase()}` } });
    expect(res.status).toBe(200);
    await expectSchema('CreatedUser', res.json);
    expect(res.headers['x-auth-token']).toBeUndefined(); // verification is required: no session
    const [row] = await t.database.db
      .select()
      .from(authEmails)
      .where(eq(authEmails.address, email));
    expect(row).toMatchObject({
      userId: res.json.user_id,
      id: res.json.email_id,
      verified: false,
      isPrimary: true,
    });

    const again = await call('POST', '/users', { body: { email } });
    expect(again.status).toBe(200);
    expect(again.json.user_id).not.toBe(res.json.user_id);
    expect(
      await t.database.db.select().from(authUsers).where(eq(authUsers.id, again.json.user_id)),
    ).toHaveLength(0);

    expect((await call('POST', '/users', { body: { email: 'kein-at' } })).status).toBe(400);
    const long = await call('POST', '/users', {
      body: { email: `${'a'.repeat(130)}@example.org` },
    });
    expect(long.json.message).toBe('email: value_too_long_error');
  });

  it('POST /users without verification answers a session, 409 when taken; 403 when sign-up is off', async () => {
    const app = await createAuthTestApp({ env: { AUTH_EMAIL_REQUIRE_VERIFICATION: 'false' } });
    try {
      const email = uniqueEmail('open');
      const res = await app.app.inject({ method: 'POST', url: '/auth/users', payload: { email } });
      expect(res.statusCode).toBe(200);
      const token = String(res.headers['x-auth-token']);
      expect(res.headers['x-session-lifetime']).toBe('43200');
      const me = await app.app.inject({
        method: 'GET',
        url: '/auth/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.json().id).toBe(res.json().user_id);
      const taken = await app.app.inject({
        method: 'POST',
        url: '/auth/users',
        payload: { email },
      });
      expect(taken.statusCode).toBe(409);
    } finally {
      await app.close();
    }
    const closed = await createAuthTestApp({ env: { AUTH_SIGNUP_ENABLED: 'false' } });
    try {
      const res = await closed.app.inject({
        method: 'POST',
        url: '/auth/users',
        payload: { email: uniqueEmail('no') },
      });
      expect(res.statusCode).toBe(403);
    } finally {
      await closed.close();
    }
  });

  it('DELETE /user deletes the own account and ends its sessions, also for the product API', async () => {
    const a = await person();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { authorization: `Bearer ${a.token}` },
        })
      ).statusCode,
    ).toBe(200);
    const res = await call('DELETE', '/user', { token: a.token });
    expect(res.status).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/^hanko=; Path=\/; Max-Age=0/);
    expect(
      await t.database.db.select().from(authUsers).where(eq(authUsers.id, a.userId)),
    ).toHaveLength(0);
    expect(
      await t.database.db.select().from(authSessions).where(eq(authSessions.userId, a.userId)),
    ).toHaveLength(0);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { authorization: `Bearer ${a.token}` },
        })
      ).statusCode,
    ).toBe(401);
    expect((await call('GET', '/me', { token: a.token })).status).toBe(401);
  });

  it('POST /logout ends the session', async () => {
    const a = await person();
    expect((await call('POST', '/logout', { token: a.token })).status).toBe(204);
    expect((await call('GET', '/me', { token: a.token })).status).toBe(401);
  });
});

describe('e-mails', () => {
  it('GET, POST, set_primary and DELETE on the own addresses', async () => {
    const a = await person();
    const list = await call('GET', '/emails', { token: a.token });
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(1);
    for (const e of list.json) await expectSchema('Email', e);
    const primaryId = list.json[0].id;

    const address = uniqueEmail('more');
    const created = await call('POST', '/emails', {
      token: a.token,
      body: { address: address.toUpperCase() },
    });
    expect(created.status).toBe(200);
    await expectSchema('Email', created.json);
    expect(created.json).toMatchObject({ address, is_verified: false, is_primary: false });

    // An unverified address cannot become primary (verification is required).
    const unverified = await call('POST', `/emails/${created.json.id}/set_primary`, {
      token: a.token,
    });
    expect(unverified.status).toBe(400);
    await t.database.db
      .update(authEmails)
      .set({ verified: true })
      .where(eq(authEmails.id, created.json.id));
    expect(
      (await call('POST', `/emails/${created.json.id}/set_primary`, { token: a.token })).status,
    ).toBe(204);
    const after = await call('GET', '/emails', { token: a.token });
    expect(after.json.find((e: { is_primary: boolean }) => e.is_primary).id).toBe(created.json.id);

    // The primary cannot be deleted; the old primary now can.
    expect((await call('DELETE', `/emails/${created.json.id}`, { token: a.token })).status).toBe(
      409,
    );
    expect((await call('DELETE', `/emails/${primaryId}`, { token: a.token })).status).toBe(204);
    const last = await call('GET', '/emails', { token: a.token });
    expect(last.json.map((e: { id: string }) => e.id)).toEqual([created.json.id]);
  });

  it('POST /emails: 400 for an existing or bad address, 409 at the maximum', async () => {
    const a = await person();
    const b = await person();
    const mine = await call('POST', '/emails', { token: a.token, body: { address: a.email } });
    expect(mine).toMatchObject({ status: 400, json: { message: 'email_already_exists' } });
    const theirs = await call('POST', '/emails', { token: a.token, body: { address: b.email } });
    expect(theirs).toMatchObject({ status: 400, json: { message: 'email_already_exists' } });
    const bad = await call('POST', '/emails', {
      token: a.token,
      body: { email: uniqueEmail('wrong-field') },
    });
    expect(bad).toMatchObject({ status: 400, json: { message: 'email: unknown_property_error' } });
    const missing = await call('POST', '/emails', { token: a.token, body: {} });
    expect(missing).toMatchObject({
      status: 400,
      json: { message: 'address: value_missing_error' },
    });
    // The contract's additionalProperties: false — refused, and nothing is stored.
    const extra = await call('POST', '/emails', {
      token: a.token,
      body: { address: uniqueEmail('extra'), is_primary: true },
    });
    expect(extra).toMatchObject({
      status: 400,
      json: { message: 'is_primary: unknown_property_error' },
    });
    expect((await call('GET', '/emails', { token: a.token })).json).toHaveLength(1);
    expect(
      (await call('POST', '/emails', { token: a.token, body: { address: 'a@b' } })).json.message,
    ).toBe('address: value_invalid_error');
    for (let i = 0; i < 4; i++) {
      expect(
        (
          await call('POST', '/emails', {
            token: a.token,
            body: { address: uniqueEmail(`max${i}`) },
          })
        ).status,
      ).toBe(200);
    }
    const full = await call('POST', '/emails', {
      token: a.token,
      body: { address: uniqueEmail('one-too-many') },
    });
    expect(full.status).toBe(409);
  });

  it("another person's addresses are not found; bad ids are 400", async () => {
    const a = await person();
    const b = await person();
    const [theirs] = (await call('GET', '/emails', { token: b.token })).json;
    expect(
      (await call('POST', `/emails/${theirs.id}/set_primary`, { token: a.token })).status,
    ).toBe(404);
    expect((await call('DELETE', `/emails/${theirs.id}`, { token: a.token })).status).toBe(404);
    expect((await call('DELETE', `/emails/${UNKNOWN_ID}`, { token: a.token })).status).toBe(404);
    expect((await call('DELETE', '/emails/kein-uuid', { token: a.token })).json.message).toBe(
      'id: value_invalid_error',
    );
    expect((await call('POST', '/emails/kein-uuid/set_primary', { token: a.token })).status).toBe(
      400,
    );
    // The only address cannot go.
    const [own] = (await call('GET', '/emails', { token: a.token })).json;
    expect((await call('DELETE', `/emails/${own.id}`, { token: a.token })).status).toBe(409);
    const [still] = await t.database.db
      .select()
      .from(authEmails)
      .where(eq(authEmails.id, theirs.id));
    expect(still).toBeDefined();
  });
});

describe('unconfirmed addresses', () => {
  it('an address someone added but never confirmed does not lead its owner into that account', async () => {
    const squatter = await person();
    const victim = uniqueEmail('owner');
    expect(
      (await call('POST', '/emails', { token: squatter.token, body: { address: victim } })).status,
    ).toBe(200);

    const init = await t.begin('login');
    const next = await t.act(init, 'continue_with_login_identifier', { email: victim });
    const pc =
      next.name === 'login_method_chooser'
        ? await t.act(next, 'continue_to_passcode_confirmation')
        : next;
    expect(pc.name).toBe('passcode_confirmation');
    // The owner gets no code for the squatter's account: nothing leads to success.
    const mails = await t.mails(victim);
    expect(mails.every((m) => !/\d{6}/.test(String(m.body ?? '')))).toBe(true);
    const guessed = await t.act(pc, 'verify_passcode', { code: '123456' });
    expect(guessed.name).not.toBe('success');
  });
});

describe('unconfirmed addresses do not block their owner', () => {
  it('registers the owner and drops the other account’s unconfirmed claim', async () => {
    const squatter = await person();
    const owner = uniqueEmail('claimed');
    expect(
      (await call('POST', '/emails', { token: squatter.token, body: { address: owner } })).status,
    ).toBe(200);

    const done = await t.register(owner);
    expect(done.name).toBe('success');
    const mine = await call('GET', '/emails', { token: String(done.headers['x-auth-token']) });
    expect(mine.json.map((e: { address: string }) => e.address)).toEqual([owner]);
    const theirs = await call('GET', '/emails', { token: squatter.token });
    expect(theirs.json.map((e: { address: string }) => e.address)).not.toContain(owner);
  });
});
