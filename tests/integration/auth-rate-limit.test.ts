import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAuthTestApp, uniqueEmail, type AuthTestApp } from '../support/auth-client';

let t: AuthTestApp;
beforeAll(async () => {
  t = await createAuthTestApp({
    rateLimits: {
      passcodeSend: { points: 1, durationSeconds: 60 },
      passwordAttempt: { points: 2, durationSeconds: 60 },
    },
  });
});
afterAll(() => t.close());

it('limits passcode e-mails per address and IP: 429 rate_limit_exceeded with resend_after', async () => {
  const email = uniqueEmail('limit');
  const first = await t.act(await t.begin('registration'), 'register_login_identifier', { email });
  expect(first.status).toBe(200);
  const second = await t.act(await t.begin('registration'), 'register_login_identifier', { email });
  expect(second).toMatchObject({ name: 'passcode_confirmation', status: 429, error: { code: 'rate_limit_exceeded' } });
  expect(second.payload!.resend_after).toBeGreaterThan(0);
  expect(second.headers['retry-after']).toBe(String(second.payload!.resend_after));
  expect(await t.mails(email)).toHaveLength(1);
});

it('limits password attempts: 429 with retry_after', async () => {
  const email = uniqueEmail('pwlimit');
  const init = await t.begin('login');
  let state = await t.act(await t.act(init, 'continue_with_login_identifier', { email }), 'continue_to_password_login');
  state = await t.act(state, 'password_login', { password: 'falsch-1' });
  expect(state.status).toBe(400);
  state = await t.act(state, 'password_login', { password: 'falsch-2' });
  expect(state.status).toBe(400);
  state = await t.act(state, 'password_login', { password: 'falsch-3' });
  expect(state).toMatchObject({ status: 429, name: 'login_password', error: { code: 'rate_limit_exceeded' } });
  expect(state.payload!.retry_after).toBeGreaterThan(0);
});
