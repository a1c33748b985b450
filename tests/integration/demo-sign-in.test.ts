import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../server/seed/seed';
import { createAuthTestApp, type AuthTestApp } from '../support/auth-client';

// What the README promises a newcomer: each demo account signs in with a one-time code from
// the development mailbox, and the product API then knows its role.
let t: AuthTestApp;
beforeAll(async () => {
  t = await createAuthTestApp();
  await seed(t.database.db);
});
afterAll(() => t.close());

async function signInByPasscode(email: string) {
  const init = await t.begin('login');
  // The demo accounts have no password: the address leads straight to the code.
  const pc = await t.act(init, 'continue_with_login_identifier', { email });
  expect(pc.name).toBe('passcode_confirmation');
  const done = await t.act(pc, 'verify_passcode', { code: await t.lastCode(email) });
  expect(done.name).toBe('success');
  return String(done.headers['x-auth-token']);
}

describe('demo accounts', () => {
  it.each([
    ['superadmin@sprechstunde.demo', 'SUPERADMIN'],
    ['admin@sprechstunde.demo', 'ADMIN'],
    ['onboarding@sprechstunde.demo', 'ONBOARDING_MANAGER'],
    ['coach1@sprechstunde.demo', 'COACH'],
  ])('%s signs in by passcode and is an active %s', async (email, role) => {
    const token = await signInByPasscode(email);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role, active: true });
    if (role === 'COACH') expect(res.json().coach?.name).toBeTruthy();
  });

  it('the demo client reaches the product as an active client', async () => {
    const token = await signInByPasscode('klient@sprechstunde.demo');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.json()).toMatchObject({ role: 'NONE', active: true });
  });
});
