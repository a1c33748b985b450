import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_RULES } from '../../server/http/rate-limit';
import {
  createAuthTestApp,
  uniqueEmail,
  type AuthTestApp,
  type FlowState,
} from '../support/auth-client';

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
  expect(second).toMatchObject({
    name: 'passcode_confirmation',
    status: 429,
    error: { code: 'rate_limit_exceeded' },
  });
  expect(second.payload!.resend_after).toBeGreaterThan(0);
  expect(second.headers['retry-after']).toBe(String(second.payload!.resend_after));
  expect(await t.mails(email)).toHaveLength(1);
});

it('limits password attempts: 429 with retry_after', async () => {
  const email = uniqueEmail('pwlimit');
  await t.register(email, 'richtig-123'); // only an account with a password is offered one
  const init = await t.begin('login');
  let state = await t.act(
    await t.act(init, 'continue_with_login_identifier', { email }),
    'continue_to_password_login',
  );
  state = await t.act(state, 'password_login', { password: 'falsch-1' });
  expect(state.status).toBe(400);
  state = await t.act(state, 'password_login', { password: 'falsch-2' });
  expect(state.status).toBe(400);
  state = await t.act(state, 'password_login', { password: 'falsch-3' });
  expect(state).toMatchObject({
    status: 429,
    name: 'login_password',
    error: { code: 'rate_limit_exceeded' },
  });
  expect(state.payload!.retry_after).toBeGreaterThan(0);
});

describe("passcode mails: a stranger cannot use up the owner's allowance", () => {
  // Small numbers, the same rules: 3 mails per address and caller, a ceiling of 6 for all
  // callers not recognised as the owner's.
  let s: AuthTestApp;
  beforeAll(async () => {
    s = await createAuthTestApp({
      rateLimits: {
        passcodeSend: { points: 100, durationSeconds: 60 },
        passcodeSendCaller: { points: 3, durationSeconds: 900 },
        passcodeSendAddress: { points: 6, durationSeconds: 900 },
      },
    });
  });
  afterAll(() => s.close());

  /** Asks for a login code for `email` from the IP address `ip`, as the SDK would. */
  async function requestCode(email: string, ip: string) {
    const init = await s.begin('login');
    const post = async (state: FlowState, name: string, input: Record<string, unknown>) => {
      const res = await s.app.inject({
        method: 'POST',
        url: `/auth${state.actions[name]!.href}`,
        remoteAddress: ip,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ input_data: input, csrf_token: state.csrf_token }),
      });
      return JSON.parse(res.body) as FlowState;
    };
    // The owners have no password: the address leads straight to the code.
    return post(init, 'continue_with_login_identifier', { email });
  }

  it('a stranger who exhausts his allowance for an address leaves the owner, at another address, a code', async () => {
    const email = uniqueEmail('owner');
    await s.register(email);
    const stranger = await Promise.all(
      [1, 2, 3, 4, 5].map(() => requestCode(email, '203.0.113.9')),
    );
    expect(stranger.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429]);
    expect(stranger.find((r) => r.status === 429)).toMatchObject({
      name: 'passcode_confirmation',
      error: { code: 'rate_limit_exceeded' },
    });

    const before = (await s.mails(email)).length;
    const owner = await requestCode(email, '198.51.100.20');
    expect(owner).toMatchObject({ name: 'passcode_confirmation', status: 200 });
    expect(await s.mails(email)).toHaveLength(before + 1);
  });

  it('strangers who only ask for codes share the live code: no new codes reach the ceiling', async () => {
    const email = uniqueEmail('owner');
    await s.register(email);
    const sent: number[] = [];
    for (const host of [1, 2, 3, 4]) {
      for (let i = 0; i < 3; i++) sent.push((await requestCode(email, `203.0.113.${host}`)).status);
    }
    expect(sent.every((status) => status === 200)).toBe(true);
    // The owner on a device never seen before gets the same code.
    expect(await requestCode(email, '198.51.100.30')).toMatchObject({
      name: 'passcode_confirmation',
      status: 200,
    });
  });
});

describe("a flood of code requests for the owner's address (the default limits)", () => {
  let f: AuthTestApp;
  beforeAll(async () => {
    f = await createAuthTestApp();
  });
  afterAll(() => f.close());

  async function post(state: FlowState, name: string, input: Record<string, unknown>, ip: string) {
    const res = await f.app.inject({
      method: 'POST',
      url: `/auth${state.actions[name]!.href}`,
      remoteAddress: ip,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ input_data: input, csrf_token: state.csrf_token }),
    });
    return JSON.parse(res.body) as FlowState;
  }

  it('14 strangers asking for codes leave the owner, from a new address, able to sign in; the mailbox gets at most the cap', async () => {
    const email = uniqueEmail('owner');
    await f.register(email); // from 127.0.0.1
    const before = (await f.mails(email)).length;
    // Each stranger as often as his own allowance lets him (3 a minute).
    for (let host = 1; host <= 14; host++) {
      for (let i = 0; i < 3; i++) {
        const asked = await post(
          await f.begin('login'),
          'continue_with_login_identifier',
          { email },
          `203.0.113.${host}`,
        );
        expect(asked.status).toBe(200);
      }
    }
    const ip = '198.51.100.77';
    const pc = await post(await f.begin('login'), 'continue_with_login_identifier', { email }, ip);
    expect(pc).toMatchObject({ name: 'passcode_confirmation', status: 200 });
    const done = await post(pc, 'verify_passcode', { code: await f.lastCode(email) }, ip);
    expect(done).toMatchObject({ name: 'success', status: 200 });

    const received = (await f.mails(email)).length - before;
    expect(received).toBeGreaterThanOrEqual(1);
    expect(received + before).toBeLessThanOrEqual(RATE_RULES.passcodeMailAddress.points);
  });
});
