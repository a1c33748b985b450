import { eq } from 'drizzle-orm';
import { decodeJwt, createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFlows, authPasscodes } from '../../server/db/schema/index';
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

const productLogin = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { authorization: `Bearer ${token}` },
  });

describe('registration', () => {
  it('e-mail → passcode from the mail → password → success with a session the product accepts', async () => {
    const email = uniqueEmail('reg');
    const first = await t.start('registration');
    expect(first).toMatchObject({ name: 'preflight', status: 200, payload: {}, links: null });
    expect(first.csrf_token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(Object.keys(first.actions)).toEqual(['register_client_capabilities']);

    const init = await t.act(first, 'register_client_capabilities', { webauthn_available: false });
    expect(init.name).toBe('registration_init');
    expect(init.csrf_token).not.toBe(first.csrf_token);
    expect(init.actions.register_login_identifier!.inputs.email).toMatchObject({
      name: 'email',
      type: 'email',
      required: true,
    });

    const pc = await t.act(init, 'register_login_identifier', {
      email: `  ${email.toUpperCase()} `,
    });
    expect(pc.name).toBe('passcode_confirmation');
    // Stored and queued with the flow's step; the job queue sends it.
    expect((await t.mails(email))[0]).toMatchObject({ status: 'queued' });
    expect(await t.app.jobs.runDue()).toBe(1);
    const [mail] = await t.mails(email);
    expect(mail).toMatchObject({
      channel: 'email',
      status: 'sent',
      template: 'auth_email_verification',
    });
    expect(mail!.body).toMatch(/^Ihr Einmalcode für Sprechstunde: \d{6}/);

    const pw = await t.act(pc, 'verify_passcode', { code: await t.lastCode(email) });
    expect(pw.name).toBe('password_creation');
    expect(pw.actions.back).toBeUndefined(); // a proven code cannot be undone
    expect(Object.keys(pw.actions).sort()).toEqual(['register_password', 'skip']);

    const done = await t.act(pw, 'register_password', { new_password: 'geheim-123' });
    expect(done).toMatchObject({ name: 'success', status: 200, actions: {} });
    expect(done.headers['x-session-lifetime']).toBe('43200');
    expect(done.headers['x-session-retention']).toBe('persistent');
    const token = String(done.headers['x-auth-token']);
    expect(done.headers['set-cookie']).toBeUndefined();
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: done.payload!.user.id,
      email: { address: email, is_verified: true, is_primary: true },
      iss: t.config.AUTH_ISSUER,
      aud: [t.config.AUTH_AUDIENCE],
    });
    expect(claims.exp! - claims.iat!).toBe(43200);
    expect(done.payload!.claims).toMatchObject({
      subject: claims.sub,
      session_id: claims.session_id,
    });
    expect(Date.parse(done.payload!.claims.expiration)).toBe(claims.exp! * 1000);

    const login = await productLogin(token);
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ role: 'NONE' });
  });

  it('skipping the password still registers; the taken address then looks new but leads nowhere', async () => {
    const email = uniqueEmail('skip');
    const done = await t.register(email);
    expect(done.payload!.user.emails[0]).toMatchObject({ address: email, is_verified: true });

    const init = await t.begin('registration');
    const again = await t.act(init, 'register_login_identifier', { email });
    expect(again.name).toBe('passcode_confirmation');
    expect(again.status).toBe(200);
    const [mail] = await t.mails(email);
    expect(mail!.template).toBe('auth_email_registration_attempted');
    expect(mail!.body).not.toMatch(/\d{6}/);
  });

  it('reports invalid inputs at the input, keeps the state and rotates the CSRF token', async () => {
    const init = await t.begin('registration');
    const missing = await t.act(init, 'register_login_identifier', {});
    expect(missing).toMatchObject({
      name: 'registration_init',
      status: 400,
      error: { code: 'form_data_invalid_error' },
    });
    expect(missing.actions.register_login_identifier!.inputs.email.error).toMatchObject({
      code: 'value_missing_error',
    });
    expect(missing.csrf_token).not.toBe(init.csrf_token);

    const bad = await t.act(missing, 'register_login_identifier', { email: 'kein-at-zeichen' });
    expect(bad.actions.register_login_identifier!.inputs.email).toMatchObject({
      value: 'kein-at-zeichen',
      error: { code: 'value_invalid_error' },
    });
    const long = await t.act(bad, 'register_login_identifier', {
      email: `${'a'.repeat(120)}@example.org`,
    });
    expect(long.actions.register_login_identifier!.inputs.email.error.code).toBe(
      'value_too_long_error',
    );

    const email = uniqueEmail('short');
    const pc = await t.act(long, 'register_login_identifier', { email });
    const pw = await t.act(pc, 'verify_passcode', { code: await t.lastCode(email) });
    const short = await t.act(pw, 'register_password', { new_password: 'kurz' });
    expect(short.status).toBe(400);
    expect(short.actions.register_password!.inputs.new_password.error.code).toBe(
      'value_too_short_error',
    );
    const tooLong = await t.act(short, 'register_password', { new_password: 'ü'.repeat(40) });
    expect(tooLong.actions.register_password!.inputs.new_password.error.code).toBe(
      'value_too_long_error',
    );
  });
});

describe('login', () => {
  let email: string;
  beforeAll(async () => {
    email = uniqueEmail('login');
    await t.register(email, 'richtig-123');
  });

  it('by passcode', async () => {
    const init = await t.begin('login');
    expect(init.name).toBe('login_init');
    const chooser = await t.act(init, 'continue_with_login_identifier', { email });
    expect(chooser.status).toBe(200);
    expect(Object.keys(chooser.actions).sort()).toEqual([
      'back',
      'continue_to_passcode_confirmation',
      'continue_to_password_login',
    ]);
    const pc = await t.act(chooser, 'continue_to_passcode_confirmation');
    expect(pc.name).toBe('passcode_confirmation');
    const wrong = await t.act(pc, 'verify_passcode', {
      code: '000000' === (await t.lastCode(email)) ? '111111' : '000000',
    });
    expect(wrong).toMatchObject({ status: 400, name: 'passcode_confirmation' });
    expect(wrong.actions.verify_passcode!.inputs.code.error.code).toBe('passcode_invalid');
    const done = await t.act(wrong, 'verify_passcode', { code: await t.lastCode(email) });
    expect(done.name).toBe('success');
    expect(done.payload!.last_login).toEqual({ login_method: 'passcode' });
    expect((await productLogin(String(done.headers['x-auth-token']))).statusCode).toBe(200);
  });

  it('by password; a wrong password is an input error', async () => {
    const init = await t.begin('login');
    const chooser = await t.act(init, 'continue_with_login_identifier', { email });
    const pw = await t.act(chooser, 'continue_to_password_login');
    expect(pw.name).toBe('login_password');
    const wrong = await t.act(pw, 'password_login', { password: 'falsch-123' });
    expect(wrong).toMatchObject({
      status: 400,
      name: 'login_password',
      error: { code: 'form_data_invalid_error' },
    });
    expect(wrong.actions.password_login!.inputs.password.error.code).toBe('value_invalid_error');
    const done = await t.act(wrong, 'password_login', { password: 'richtig-123' });
    expect(done.name).toBe('success');
    expect(done.payload!.last_login).toEqual({ login_method: 'password' });
    expect(decodeJwt(String(done.headers['x-auth-token'])).amr).toEqual(['pwd']);
  });

  it('recovers a forgotten password by passcode', async () => {
    const other = uniqueEmail('recover');
    await t.register(other, 'altes-passwort');
    const init = await t.begin('login');
    const chooser = await t.act(init, 'continue_with_login_identifier', { email: other });
    const pw = await t.act(chooser, 'continue_to_password_login');
    const pc = await t.act(pw, 'continue_to_passcode_confirmation_recovery');
    expect((await t.mails(other))[0]!.template).toBe('auth_recovery');
    const rec = await t.act(pc, 'verify_passcode', { code: await t.lastCode(other) });
    expect(rec.name).toBe('login_password_recovery');
    const done = await t.act(rec, 'password_recovery', { new_password: 'neues-passwort' });
    expect(done.name).toBe('success');

    const again = await t.act(
      await t.act(
        await t.act(await t.begin('login'), 'continue_with_login_identifier', { email: other }),
        'continue_to_password_login',
      ),
      'password_login',
      { password: 'neues-passwort' },
    );
    expect(again.name).toBe('success');
  });

  it('an unknown address behaves like a known one without a password and never succeeds', async () => {
    const stranger = uniqueEmail('stranger');
    const init = await t.begin('login');
    const pc = await t.act(init, 'continue_with_login_identifier', { email: stranger });
    expect(pc.name).toBe('passcode_confirmation');
    const [mail] = await t.mails(stranger);
    expect(mail!.template).toBe('auth_email_login_attempted');
    const wrong = await t.act(pc, 'verify_passcode', { code: '123456' });
    expect(wrong.actions.verify_passcode!.inputs.code.error.code).toBe('passcode_invalid');
  });

  it('ends a passcode after 3 wrong tries', async () => {
    const init = await t.begin('login');
    let state = await t.act(
      await t.act(init, 'continue_with_login_identifier', { email }),
      'continue_to_passcode_confirmation',
    );
    const right = await t.lastCode(email);
    const wrongCode = right === '999999' ? '999998' : '999999';
    state = await t.act(state, 'verify_passcode', { code: wrongCode });
    expect(state.status).toBe(400);
    state = await t.act(state, 'verify_passcode', { code: wrongCode });
    expect(state.status).toBe(400);
    state = await t.act(state, 'verify_passcode', { code: wrongCode });
    expect(state).toMatchObject({
      status: 401,
      name: 'passcode_confirmation',
      error: { code: 'passcode_max_attempts_reached' },
    });
    state = await t.act(state, 'verify_passcode', { code: right });
    expect(state.error?.code).toBe('passcode_max_attempts_reached');
  });

  it('refuses an expired passcode', async () => {
    const init = await t.begin('login');
    const pc = await t.act(
      await t.act(init, 'continue_with_login_identifier', { email }),
      'continue_to_passcode_confirmation',
    );
    const code = await t.lastCode(email);
    const flowId = decodeURIComponent(pc.actions.verify_passcode!.href).split('@')[1]!;
    await t.database.db
      .update(authPasscodes)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(authPasscodes.flowId, flowId));
    const late = await t.act(pc, 'verify_passcode', { code });
    expect(late).toMatchObject({ status: 400, name: 'passcode_confirmation' });
    expect(late.actions.verify_passcode!.inputs.code.error.code).toBe('passcode_invalid');
  });

  it('goes back one step', async () => {
    const init = await t.begin('login');
    const chooser = await t.act(init, 'continue_with_login_identifier', { email });
    const pw = await t.act(chooser, 'continue_to_password_login');
    const backToChooser = await t.act(pw, 'back');
    expect(backToChooser.name).toBe('login_method_chooser');
    const backToInit = await t.act(backToChooser, 'back');
    expect(backToInit.name).toBe('login_init');
    expect(backToInit.actions.back).toBeUndefined();
    const chooser2 = await t.act(backToInit, 'continue_with_login_identifier', { email });
    expect(chooser2.name).toBe('login_method_chooser');
  });
});

describe('the request body the contract describes is the one the server takes', () => {
  it('starts a flow without input_data or csrf_token, runs an input-less action without input_data, ignores other properties', async () => {
    // Every body sent here is one the server answers normally: each must fit the contract.
    const sent: unknown[] = [];
    const send = (url: string, body?: unknown) => {
      if (body !== undefined) sent.push(body);
      return t.post(url, body);
    };
    const bare = await send('/login', {});
    expect(bare.name).toBe('preflight');
    const init = await t.act(bare, 'register_client_capabilities', { webauthn_available: false });
    const chooser = await send(init.actions.continue_with_login_identifier!.href, {
      input_data: { email: uniqueEmail() },
      csrf_token: init.csrf_token,
      sdk_version: '2.1.0',
    });
    expect(chooser.status).toBe(200);
    const back = await send(chooser.actions.back!.href, { csrf_token: chooser.csrf_token });
    expect(back.name).toBe('login_init');
    const nullInputs = await send(back.actions.continue_with_login_identifier!.href, {
      input_data: null,
      csrf_token: back.csrf_token,
    });
    expect(nullInputs).toMatchObject({ status: 400, name: 'login_init' });
    for (const body of sent) await expectSchema('FlowActionRequest', body);
    // Without the token an action is refused (the contract says so), so it is not required
    // by the schema but by the flow.
    const noToken = await send(nullInputs.actions.continue_with_login_identifier!.href, {
      input_data: { email: uniqueEmail() },
    });
    expect(noToken).toMatchObject({
      status: 403,
      error: { code: 'operation_not_permitted_error' },
    });
  });
});

describe('refused requests change nothing', () => {
  it('a wrong CSRF token, an unknown flow, an unavailable action, an expired flow', async () => {
    const init = await t.begin('login');
    const flowId = decodeURIComponent(init.actions.continue_with_login_identifier!.href).split(
      '@',
    )[1]!;
    const [before] = await t.database.db.select().from(authFlows).where(eq(authFlows.id, flowId));

    const csrf = await t.post(init.actions.continue_with_login_identifier!.href, {
      input_data: { email: uniqueEmail() },
      csrf_token: 'x'.repeat(32),
    });
    expect(csrf).toMatchObject({
      name: 'error',
      status: 403,
      csrf_token: '',
      actions: {},
      error: { code: 'operation_not_permitted_error' },
    });
    expect(csrf.payload).toBeUndefined();

    const unknown = await t.post(
      `/login?action=back%40${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
      {
        input_data: {},
        csrf_token: init.csrf_token,
      },
    );
    expect(unknown.error?.code).toBe('operation_not_permitted_error');
    const notHere = await t.post(`/login?action=password_login%40${flowId}`, {
      input_data: {},
      csrf_token: init.csrf_token,
    });
    expect(notHere).toMatchObject({ status: 403, name: 'error' });
    const malformed = await t.post('/login?action=nonsense', {
      input_data: {},
      csrf_token: init.csrf_token,
    });
    expect(malformed).toMatchObject({
      status: 400,
      name: 'error',
      error: { code: 'form_data_invalid_error', cause: 'action: value_invalid_error' },
    });
    const wrongFlow = await t.post(
      `/registration?action=continue_with_login_identifier%40${flowId}`,
      {
        input_data: {},
        csrf_token: init.csrf_token,
      },
    );
    expect(wrongFlow.status).toBe(403);

    const [after] = await t.database.db.select().from(authFlows).where(eq(authFlows.id, flowId));
    expect(after).toEqual(before);

    await t.database.db
      .update(authFlows)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(authFlows.id, flowId));
    const expired = await t.act(init, 'continue_with_login_identifier', { email: uniqueEmail() });
    expect(expired).toMatchObject({
      name: 'error',
      status: 410,
      error: { code: 'flow_expired_error' },
    });
  });

  it('of two concurrent actions on one flow, one is refused', async () => {
    const init = await t.begin('login');
    const [a, b] = await Promise.all([
      t.act(init, 'continue_with_login_identifier', { email: uniqueEmail('a') }),
      t.act(init, 'continue_with_login_identifier', { email: uniqueEmail('b') }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 500]).toContain(statuses[1]);
    const refused = a.status === 200 ? b : a;
    expect(refused).toMatchObject({ name: 'error', csrf_token: '', actions: {} });
  });
});

describe('sessions', () => {
  it('JWKS verifies the token; /me and /sessions/validate know it; logout ends it everywhere', async () => {
    const email = uniqueEmail('session');
    const done = await t.register(email, 'passwort-123');
    const token = String(done.headers['x-auth-token']);
    const auth = { authorization: `Bearer ${token}` };

    const jwks = await t.app.inject({ method: 'GET', url: '/auth/.well-known/jwks.json' });
    expect(jwks.headers['cache-control']).toBe('max-age=600');
    await expectSchema('Jwks', jwks.json());
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.json()), {
      issuer: t.config.AUTH_ISSUER,
      audience: t.config.AUTH_AUDIENCE,
    });
    expect(payload.sub).toBe(done.payload!.user.id);

    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth });
    expect(me.statusCode).toBe(200);
    await expectSchema('ProfileData', me.json());
    expect(me.json().emails[0].address).toBe(email);

    const valid = await t.app.inject({
      method: 'GET',
      url: '/auth/sessions/validate',
      headers: auth,
    });
    await expectSchema('SessionValidation', valid.json());
    expect(valid.json()).toMatchObject({
      is_valid: true,
      user_id: payload.sub,
      claims: { session_id: payload.session_id },
    });
    const byBody = await t.app.inject({
      method: 'POST',
      url: '/auth/sessions/validate',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ session_token: token }),
    });
    expect(byBody.json().is_valid).toBe(true);

    expect((await productLogin(token)).statusCode).toBe(200);
    const logout = await t.app.inject({ method: 'POST', url: '/auth/logout', headers: auth });
    expect(logout.statusCode).toBe(204);
    expect(String(logout.headers['set-cookie'])).toMatch(/^hanko=; Path=\/; Max-Age=0/);

    expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth })).statusCode).toBe(
      401,
    );
    const after = await t.app.inject({
      method: 'GET',
      url: '/auth/sessions/validate',
      headers: auth,
    });
    expect(after.json()).toEqual({ is_valid: false });
    expect((await productLogin(token)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/auth/logout', headers: auth })).statusCode,
    ).toBe(401);
  });

  it('the product refuses tokens of the test issuer when the provider is mounted', async () => {
    const foreign = await t.tokenFor({ email: uniqueEmail() });
    expect((await productLogin(foreign)).statusCode).toBe(401);
  });
});

describe('CORS (protocol 1.1)', () => {
  const origin = 'http://localhost:3000'; // the default PUBLIC_URL

  it('answers the preflight of the own origin with credentials, methods, headers and max-age', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/auth/login?action=x%40y',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-language, authorization',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-max-age': '7200',
    });
    expect(
      String(preflight.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/),
    ).toEqual(expect.arrayContaining(['accept', 'authorization', 'content-type', 'x-language']));
  });

  it('exposes the session headers on a flow answer, and X-Auth-Token in header mode', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { origin, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(String(res.headers.vary)).toMatch(/Origin/);
    expect(String(res.headers['access-control-expose-headers']).split(', ').sort()).toEqual([
      'Retry-After',
      'X-Auth-Token',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-Session-Lifetime',
      'X-Session-Retention',
    ]);
  });

  it('gives another origin no CORS headers', async () => {
    for (const method of ['OPTIONS', 'GET'] as const) {
      const res = await t.app.inject({
        method,
        url: '/auth/sessions/validate',
        headers: {
          origin: 'https://elsewhere.example.org',
          'access-control-request-method': 'GET',
        },
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });
});

describe('development mailbox', () => {
  it('lists captured mails, escaped, in German', async () => {
    const email = uniqueEmail('box');
    await t.act(await t.begin('registration'), 'register_login_identifier', { email });
    const page = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Postfach (Entwicklung)');
    expect(page.body).toContain(email);
    expect(page.body).toMatch(/Ihr Einmalcode für Sprechstunde: \d{6}/);
    expect(page.body).not.toMatch(/<script/i);
  });
});
