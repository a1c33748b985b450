import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authEmails,
  authPasswordCredentials,
  authSessions,
  authUsers,
  users,
} from '../../server/db/schema/index';
import { patchMetadata } from '../../server/auth-provider/metadata';
import {
  createAuthTestApp,
  uniqueEmail,
  type AuthTestApp,
  type FlowState,
} from '../support/auth-client';

let t: AuthTestApp;
beforeAll(async () => {
  t = await createAuthTestApp({
    rateLimits: { passcodeAttempt: { points: 1000, durationSeconds: 60 } },
  });
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A registered person with a session token. */
async function person(password?: string) {
  const email = uniqueEmail('profile');
  const done = await t.register(email, password);
  return {
    email,
    token: String(done.headers['x-auth-token']),
    userId: done.payload!.user.id as string,
  };
}

/** A second session of the same person (login by passcode). */
async function loginAgain(email: string) {
  const init = await t.begin('login');
  const chooser = await t.act(init, 'continue_with_login_identifier', { email });
  const pc = chooser.actions.continue_to_passcode_confirmation
    ? await t.act(chooser, 'continue_to_passcode_confirmation')
    : chooser;
  const done = await t.act(pc, 'verify_passcode', { code: await t.lastCode(email) });
  expect(done.name).toBe('success');
  return String(done.headers['x-auth-token']);
}

/** Runs a profile action with the session, like the SDK (it sends the Bearer header every time). */
function act(state: FlowState, token: string, name: string, input: Record<string, unknown> = {}) {
  const action = state.actions[name];
  if (!action)
    throw new Error(
      `${state.name} offers no ${name} (has ${Object.keys(state.actions).join(', ')})`,
    );
  return t.post(action.href, { input_data: input, csrf_token: state.csrf_token }, bearer(token));
}

/** Starts the profile flow and passes preflight: profile_init. */
async function profile(token: string) {
  const first = await t.post('/profile', undefined, bearer(token));
  expect(first.name).toBe('preflight');
  const init = await act(first, token, 'register_client_capabilities', {
    webauthn_available: false,
  });
  expect(init.name).toBe('profile_init');
  return init;
}

const emailsOf = (state: FlowState) =>
  state.payload!.user.emails as {
    id: string;
    address: string;
    is_primary: boolean;
    is_verified: boolean;
  }[];

/** Adds a verified address through email_create and the code. */
async function addVerified(state: FlowState, token: string, address: string) {
  const pc = await act(state, token, 'email_create', { email: address });
  expect(pc.name).toBe('passcode_confirmation');
  const back = await act(pc, token, 'verify_passcode', { code: await t.lastCode(address) });
  expect(back.name).toBe('profile_init');
  return back;
}

describe('profile flow: session', () => {
  it('answers unauthorized (401) without a session, with a bad token and after logout', async () => {
    const none = await t.post('/profile');
    expect(none).toMatchObject({
      status: 401,
      name: 'error',
      csrf_token: '',
      actions: {},
      error: { code: 'unauthorized' },
    });
    const bad = await t.post('/profile', undefined, bearer('not-a-token'));
    expect(bad.status).toBe(401);

    const { token } = await person();
    const init = await profile(token);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: bearer(token),
    });
    expect(logout.statusCode).toBe(204);
    const after = await act(init, token, 'password_create', { password: 'geheim-123' });
    expect(after).toMatchObject({ status: 401, name: 'error', error: { code: 'unauthorized' } });
  });

  it("shows the user, the sessions, and refuses another person's session on the flow", async () => {
    const a = await person();
    const b = await person();
    const init = await profile(a.token);
    expect(init.payload!.user).toMatchObject({
      id: a.userId,
      emails: [{ address: a.email, is_primary: true, is_verified: true }],
    });
    expect(init.payload!.sessions).toHaveLength(1);
    expect(init.payload!.sessions[0]).toMatchObject({ current: true });
    // Nothing to delete or revoke: the only address, the only (current) session.
    expect(init.actions.email_delete).toBeUndefined();
    expect(init.actions.email_set_primary).toBeUndefined();
    expect(init.actions.email_verify).toBeUndefined();
    expect(init.actions.session_delete).toBeUndefined();
    expect(init.actions.password_delete).toBeUndefined();
    expect(init.actions.password_update).toBeUndefined();
    expect(init.actions.username_create).toBeUndefined(); // usernames are off
    expect(init.actions.back).toBeUndefined();
    // Without WebAuthn in the browser only the authenticator app is offered as a second factor.
    expect(Object.keys(init.actions).sort()).toEqual([
      'account_delete',
      'continue_to_otp_secret_creation',
      'email_create',
      'password_create',
      'patch_metadata',
    ]);

    const foreign = await act(init, b.token, 'password_create', { password: 'geheim-123' });
    expect(foreign).toMatchObject({
      status: 403,
      name: 'error',
      error: { code: 'operation_not_permitted_error' },
    });
    const [row] = await t.database.db
      .select()
      .from(authPasswordCredentials)
      .where(eq(authPasswordCredentials.userId, b.userId));
    expect(row).toBeUndefined();
  });

  it('also takes the session from the cookie', async () => {
    const { token } = await person();
    const first = await t.post('/profile', undefined, { cookie: `hanko=${token}` });
    expect(first.name).toBe('preflight');
  });
});

describe('profile flow: e-mails', () => {
  it('email_create verifies the new address by code; email_set_primary; email_delete', async () => {
    const { email, token, userId } = await person();
    const init = await profile(token);
    const second = uniqueEmail('second');
    const pc = await act(init, token, 'email_create', { email: second.toUpperCase() });
    expect(pc.name).toBe('passcode_confirmation');
    expect((await t.mails(second))[0]!.template).toBe('auth_email_verification');
    // Not stored before the code.
    expect(
      (await t.database.db.select().from(authEmails).where(eq(authEmails.address, second))).length,
    ).toBe(0);
    const wrong = await act(pc, token, 'verify_passcode', {
      code: (await t.lastCode(second)) === '000000' ? '111111' : '000000',
    });
    expect(wrong.actions.verify_passcode!.inputs.code.error.code).toBe('passcode_invalid');
    const back = await act(wrong, token, 'verify_passcode', { code: await t.lastCode(second) });
    expect(back.name).toBe('profile_init');
    const added = emailsOf(back).find((e) => e.address === second)!;
    expect(added).toMatchObject({ is_verified: true, is_primary: false });

    // The primary cannot be deleted; the new one can.
    expect(back.actions.email_delete!.inputs.email_id.allowed_values).toEqual([
      { value: added.id, name: second },
    ]);
    const primaryId = emailsOf(back).find((e) => e.address === email)!.id;
    const refused = await act(back, token, 'email_delete', { email_id: primaryId });
    expect(refused.status).toBe(400);
    expect(refused.actions.email_delete!.inputs.email_id.error.code).toBe('value_invalid_error');

    const unknown = await act(refused, token, 'email_set_primary', {
      email_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown).toMatchObject({
      status: 404,
      name: 'profile_init',
      error: { code: 'not_found' },
    });
    const primary = await act(unknown, token, 'email_set_primary', { email_id: added.id });
    expect(primary.status).toBe(200);
    expect(emailsOf(primary).find((e) => e.is_primary)!.address).toBe(second);
    expect(primary.actions.email_delete!.inputs.email_id.allowed_values).toEqual([
      { value: primaryId, name: email },
    ]);

    const deleted = await act(primary, token, 'email_delete', { email_id: primaryId });
    expect(deleted.status).toBe(200);
    expect(emailsOf(deleted).map((e) => e.address)).toEqual([second]);
    expect(deleted.actions.email_delete).toBeUndefined();
    const rows = await t.database.db.select().from(authEmails).where(eq(authEmails.userId, userId));
    expect(rows.map((r) => r.address)).toEqual([second]);
  });

  it('email_create refuses an own or a bad address; a taken one leads nowhere; back returns', async () => {
    const { email, token } = await person();
    const other = await person();
    const init = await profile(token);
    const own = await act(init, token, 'email_create', { email });
    expect(own).toMatchObject({ status: 400, name: 'profile_init' });
    expect(own.actions.email_create!.inputs.email.error.code).toBe('email_already_exists');
    const bad = await act(own, token, 'email_create', { email: 'kein-at' });
    expect(bad.actions.email_create!.inputs.email.error.code).toBe('value_invalid_error');

    const taken = await act(bad, token, 'email_create', { email: other.email });
    expect(taken.name).toBe('passcode_confirmation');
    expect((await t.mails(other.email))[0]!.template).toBe('auth_email_registration_attempted');
    const guess = await act(taken, token, 'verify_passcode', { code: '123456' });
    expect(guess.actions.verify_passcode!.inputs.code.error.code).toBe('passcode_invalid');
    const back = await act(guess, token, 'back');
    expect(back.name).toBe('profile_init');
    expect(emailsOf(back)).toHaveLength(1);
  });

  it('email_verify sends a code to an unverified address and marks it verified', async () => {
    const { token, userId } = await person();
    const unverified = uniqueEmail('unverified');
    const created = await t.app.inject({
      method: 'POST',
      url: '/auth/emails',
      headers: bearer(token),
      payload: { address: unverified },
    });
    expect(created.statusCode).toBe(200);
    const init = await profile(token);
    const id = emailsOf(init).find((e) => e.address === unverified)!.id;
    // Unverified: cannot become primary.
    expect(init.actions.email_set_primary).toBeUndefined();
    expect(init.actions.email_verify!.inputs.email_id.allowed_values).toEqual([
      { value: id, name: unverified },
    ]);
    const pc = await act(init, token, 'email_verify', { email_id: id });
    expect(pc.name).toBe('passcode_confirmation');
    const done = await act(pc, token, 'verify_passcode', { code: await t.lastCode(unverified) });
    expect(done.name).toBe('profile_init');
    expect(emailsOf(done).find((e) => e.id === id)!.is_verified).toBe(true);
    expect(done.actions.email_verify).toBeUndefined();
    expect(done.actions.email_set_primary).toBeDefined();
    const [row] = await t.database.db.select().from(authEmails).where(eq(authEmails.id, id));
    expect(row).toMatchObject({ userId, verified: true });
  });

  it('offers email_create only below the limit', async () => {
    const { token } = await person();
    let state = await profile(token);
    for (let i = 1; i < 5; i++) state = await addVerified(state, token, uniqueEmail(`many${i}`));
    expect(emailsOf(state)).toHaveLength(5);
    expect(state.actions.email_create).toBeUndefined();
  });
});

describe('profile flow: password', () => {
  it('password_create, password_update, password_delete (the passcode remains)', async () => {
    const { email, token, userId } = await person();
    const init = await profile(token);
    const short = await act(init, token, 'password_create', { password: 'kurz' });
    expect(short.status).toBe(400);
    expect(short.actions.password_create!.inputs.password.error.code).toBe('value_too_short_error');
    const created = await act(short, token, 'password_create', { password: 'erstes-passwort' });
    expect(created.status).toBe(200);
    expect(created.actions.password_create).toBeUndefined();
    expect(Object.keys(created.actions)).toEqual(
      expect.arrayContaining(['password_update', 'password_delete']),
    );

    const updated = await act(created, token, 'password_update', { password: 'zweites-passwort' });
    expect(updated.status).toBe(200);
    const login = await t.act(
      await t.act(
        await t.act(await t.begin('login'), 'continue_with_login_identifier', { email }),
        'continue_to_password_login',
      ),
      'password_login',
      { password: 'zweites-passwort' },
    );
    expect(login.name).toBe('success');

    const deleted = await act(updated, token, 'password_delete');
    expect(deleted.status).toBe(200);
    expect(deleted.actions.password_delete).toBeUndefined();
    expect(deleted.actions.password_create).toBeDefined();
    const rows = await t.database.db
      .select()
      .from(authPasswordCredentials)
      .where(eq(authPasswordCredentials.userId, userId));
    expect(rows).toHaveLength(0);
  });

  it('refuses password_delete when no other way to sign in remains', async () => {
    const strict = await createAuthTestApp({ env: { AUTH_PASSCODE_LOGIN: 'false' } });
    try {
      const email = uniqueEmail('strict');
      const done = await strict.register(email, 'geheim-123');
      const token = String(done.headers['x-auth-token']);
      const first = await strict.post('/profile', undefined, bearer(token));
      const init = await strict.post(
        first.actions.register_client_capabilities!.href,
        { input_data: { webauthn_available: false }, csrf_token: first.csrf_token },
        bearer(token),
      );
      expect(init.actions.password_update).toBeDefined();
      expect(init.actions.password_delete).toBeUndefined();
      const refused = await strict.post(
        init.actions.password_update!.href.replace('password_update', 'password_delete'),
        { input_data: {}, csrf_token: init.csrf_token },
        bearer(token),
      );
      expect(refused).toMatchObject({
        status: 403,
        error: { code: 'operation_not_permitted_error' },
      });
    } finally {
      await strict.close();
    }
  });
});

describe('profile flow: usernames', () => {
  it('username_create, username_update, username_delete when usernames are configured', async () => {
    const app = await createAuthTestApp({ env: { AUTH_USERNAME: 'optional' } });
    try {
      const email = uniqueEmail('uname');
      const init0 = await app.begin('registration');
      const pc = await app.act(init0, 'register_login_identifier', { email });
      const pw = await app.act(pc, 'verify_passcode', { code: await app.lastCode(email) });
      const done = await app.act(pw, 'skip');
      const token = String(done.headers['x-auth-token']);
      const run = (state: FlowState, name: string, input: Record<string, unknown> = {}) =>
        app.post(
          state.actions[name]!.href,
          { input_data: input, csrf_token: state.csrf_token },
          bearer(token),
        );
      const first = await app.post('/profile', undefined, bearer(token));
      const init = await run(first, 'register_client_capabilities', { webauthn_available: false });
      expect(init.actions.username_create).toBeDefined();
      expect(init.actions.username_update).toBeUndefined();
      expect(init.actions.username_delete).toBeUndefined();
      const invalid = await run(init, 'username_create', { username: 'mit leerzeichen' });
      expect(invalid.actions.username_create!.inputs.username.error.code).toBe(
        'invalid_username_error',
      );
      const created = await run(invalid, 'username_create', { username: 'Erika_M' });
      expect(created.payload!.user.username).toMatchObject({ username: 'erika_m' });
      expect(created.actions.username_create).toBeUndefined();
      const updated = await run(created, 'username_update', { username: 'erika_2' });
      expect(updated.payload!.user.username.username).toBe('erika_2');
      const deleted = await run(updated, 'username_delete');
      expect(deleted.payload!.user.username).toBeUndefined();
      expect(deleted.actions.username_create).toBeDefined();
    } finally {
      await app.close();
    }
  });
});

describe('profile flow: sessions', () => {
  it('session_delete ends another session at once, never the current one', async () => {
    const { email, token } = await person();
    const other = await loginAgain(email);
    const init = await profile(token);
    expect(init.payload!.sessions).toHaveLength(2);
    const otherId = init.payload!.sessions.find((s: { current: boolean }) => !s.current).id;
    const currentId = init.payload!.sessions.find((s: { current: boolean }) => s.current).id;
    expect(
      init.actions.session_delete!.inputs.session_id.allowed_values.map(
        (v: { value: string }) => v.value,
      ),
    ).toEqual([otherId]);

    const current = await act(init, token, 'session_delete', { session_id: currentId });
    expect(current.status).toBe(400);
    expect(current.actions.session_delete!.inputs.session_id.error.code).toBe(
      'value_invalid_error',
    );

    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', headers: bearer(other) }))
        .statusCode,
    ).toBe(200);
    const done = await act(current, token, 'session_delete', { session_id: otherId });
    expect(done.status).toBe(200);
    expect(done.payload!.sessions).toHaveLength(1);
    expect(done.actions.session_delete).toBeUndefined();
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', headers: bearer(other) }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', headers: bearer(token) }))
        .statusCode,
    ).toBe(200);
  });
});

describe('profile flow: account deletion', () => {
  it('account_delete removes the identity and ends its sessions, also for the product API', async () => {
    const { email, token, userId } = await person('geheim-123');
    const second = await loginAgain(email);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', headers: bearer(token) }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', headers: bearer(second) }))
        .statusCode,
    ).toBe(200);
    const [productRow] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.authSubject, userId));
    expect(productRow).toBeDefined();

    const init = await profile(token);
    const gone = await act(init, token, 'account_delete');
    expect(gone).toMatchObject({ status: 200, name: 'account_deleted', actions: {} });
    expect(String(gone.headers['set-cookie'])).toMatch(/^hanko=; Path=\/; Max-Age=0/);

    expect(
      await t.database.db.select().from(authUsers).where(eq(authUsers.id, userId)),
    ).toHaveLength(0);
    expect(
      await t.database.db.select().from(authEmails).where(eq(authEmails.userId, userId)),
    ).toHaveLength(0);
    expect(
      await t.database.db.select().from(authSessions).where(eq(authSessions.userId, userId)),
    ).toHaveLength(0);
    expect(
      await t.database.db
        .select()
        .from(authPasswordCredentials)
        .where(eq(authPasswordCredentials.userId, userId)),
    ).toHaveLength(0);
    for (const tok of [token, second]) {
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/login', headers: bearer(tok) }))
          .statusCode,
      ).toBe(401);
      expect(
        (await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(tok) })).statusCode,
      ).toBe(401);
    }
    // The product keeps its row (and with it the audit history).
    const [kept] = await t.database.db.select().from(users).where(eq(users.id, productRow!.id));
    expect(kept).toBeDefined();
    // The flow is over: the next request has no session.
    const again = await t.post('/profile', undefined, bearer(token));
    expect(again.status).toBe(401);
  });

  it('is not offered when account deletion is switched off', async () => {
    const app = await createAuthTestApp({ env: { AUTH_ACCOUNT_DELETION: 'false' } });
    try {
      const email = uniqueEmail('keep');
      const done = await app.register(email);
      const token = String(done.headers['x-auth-token']);
      const first = await app.post('/profile', undefined, bearer(token));
      const init = await app.post(
        first.actions.register_client_capabilities!.href,
        { input_data: { webauthn_available: false }, csrf_token: first.csrf_token },
        bearer(token),
      );
      expect(init.actions.account_delete).toBeUndefined();
      const refused = await app.post(
        init.actions.email_create!.href.replace('email_create', 'account_delete'),
        { input_data: {}, csrf_token: init.csrf_token },
        bearer(token),
      );
      expect(refused).toMatchObject({
        status: 403,
        error: { code: 'operation_not_permitted_error' },
      });
      const del = await app.app.inject({
        method: 'DELETE',
        url: '/auth/user',
        headers: bearer(token),
      });
      expect(del.statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });
});

describe('profile flow: metadata', () => {
  const metadataOf = (state: FlowState) => state.payload!.user.metadata;
  const me = async (token: string) =>
    JSON.parse(
      (await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(token) })).body,
    );

  it('always offers patch_metadata: a merge patch of unsafe_metadata, null removes a key or clears it', async () => {
    const { token } = await person();
    const init = await profile(token);
    expect(init.actions.patch_metadata!.inputs).toEqual({
      patch_metadata: { name: 'patch_metadata', type: 'json', required: true },
    });
    expect(metadataOf(init)).toBeUndefined();

    const first = await act(init, token, 'patch_metadata', {
      patch_metadata: { a: 1, nested: { x: 1, y: [1, 2] } },
    });
    expect(first).toMatchObject({ status: 200, name: 'profile_init' });
    expect(metadataOf(first)).toEqual({ unsafe_metadata: { a: 1, nested: { x: 1, y: [1, 2] } } });
    const second = await act(first, token, 'patch_metadata', {
      patch_metadata: { nested: { x: null, y: [3] }, b: 'z' },
    });
    expect(metadataOf(second)).toEqual({ unsafe_metadata: { a: 1, nested: { y: [3] }, b: 'z' } });
    expect((await me(token)).metadata).toEqual({
      unsafe_metadata: { a: 1, nested: { y: [3] }, b: 'z' },
    });

    const cleared = await act(second, token, 'patch_metadata', { patch_metadata: null });
    expect(cleared.status).toBe(200);
    expect(metadataOf(cleared)).toBeUndefined();
    expect((await me(token)).metadata).toBeUndefined();
  });

  it('refuses a patch that is no object or grows past 3000 characters, storing nothing', async () => {
    const { token } = await person();
    let state = await act(await profile(token), token, 'patch_metadata', {
      patch_metadata: { keep: true },
    });
    const refusals: Array<[unknown, string]> = [
      [['a'], 'invalid_metadata_error'],
      ['text', 'value_invalid_error'],
      [{ big: 'x'.repeat(2990) }, 'invalid_metadata_error'],
    ];
    for (const [patch, code] of refusals) {
      const refused = await act(state, token, 'patch_metadata', { patch_metadata: patch });
      expect(refused).toMatchObject({
        status: 400,
        name: 'profile_init',
        error: { code: 'form_data_invalid_error' },
      });
      expect(refused.actions.patch_metadata!.inputs.patch_metadata.error.code).toBe(code);
      state = refused;
    }
    const missing = await act(state, token, 'patch_metadata', {});
    expect(missing.actions.patch_metadata!.inputs.patch_metadata.error.code).toBe(
      'value_missing_error',
    );
    expect((await me(token)).metadata).toEqual({ unsafe_metadata: { keep: true } });
  });

  it("shows public metadata to the user, private never; the user's patch reaches only unsafe_metadata", async () => {
    const { token, userId } = await person();
    const set = await t.database.db.transaction((tx) =>
      patchMetadata(
        tx,
        userId,
        { public_metadata: { role: 'coach' }, private_metadata: { crm: 42 } },
        new Date(),
      ),
    );
    expect(set?.tooLarge).toEqual([]);
    const init = await profile(token);
    expect(metadataOf(init)).toEqual({ public_metadata: { role: 'coach' } });

    const patched = await act(init, token, 'patch_metadata', {
      patch_metadata: { public_metadata: { role: 'admin' }, private_metadata: null },
    });
    expect(metadataOf(patched)).toEqual({
      public_metadata: { role: 'coach' },
      unsafe_metadata: { public_metadata: { role: 'admin' } },
    });
    const [row] = await t.database.db.select().from(authUsers).where(eq(authUsers.id, userId));
    expect(row).toMatchObject({ publicMetadata: { role: 'coach' }, privateMetadata: { crm: 42 } });
    const legacy = JSON.parse(
      (await t.app.inject({ method: 'GET', url: `/auth/users/${userId}`, headers: bearer(token) }))
        .body,
    );
    expect(legacy.metadata).toEqual(metadataOf(patched));
    // Not in the session token: it would outgrow a cookie and go stale with every patch.
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(JSON.stringify(claims)).not.toContain('metadata');

    // The operator's patch (Hanko's admin semantics): null clears all three.
    const clearedAll = await t.database.db.transaction((tx) =>
      patchMetadata(tx, userId, null, new Date()),
    );
    expect(clearedAll?.metadata).toEqual({});
    expect((await me(token)).metadata).toBeUndefined();
  });
});
