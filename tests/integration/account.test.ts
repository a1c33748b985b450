import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../server/db/schema/index';
import { createApi, type Api } from '../support/api';
import {
  expectFieldError,
  expectProblem,
  expectStatus,
  newClient,
  newCoach,
  unique,
  type Caller,
} from './fixtures';

let api: Api;
let admin: Caller;

beforeAll(async () => {
  api = await createApi();
  admin = await api.signIn('ADMIN');
});
afterAll(() => api.close());

/** A signed-in person who has no users row yet: a fresh subject with the given e-mail. */
async function stranger(email = `${unique('p')}@example.test`) {
  const sub = randomUUID();
  return { authorization: `Bearer ${await api.tokenFor({ sub, email })}`, sub, email };
}

async function createStaff(email: string, role: string, coachId?: string) {
  const res = await api.call('POST', '/api/user', {
    as: admin,
    body: { email, role, ...(coachId ? { coachId } : {}) },
  });
  expectStatus(res, 201);
  return res.body as { user: { id: string }; activationCode: string };
}

const userCount = async () =>
  (await api.call('GET', '/api/user', { as: admin, query: { limit: 1 } })).body.itemCount as number;

describe('POST /api/login', () => {
  it('creates an inactive NONE user on first sight and is idempotent afterwards', async () => {
    const person = await stranger();
    const before = await userCount();

    const first = await api.call('POST', '/api/login', { as: person });
    expectStatus(first, 200);
    expect(first.body).toMatchObject({ role: 'NONE', active: false, coach: null });

    const second = await api.call('POST', '/api/login', { as: person });
    expectStatus(second, 200);
    expect(second.body).toEqual(first.body);
    expect(await userCount()).toBe(before + 1);

    const shown = await api.call('GET', `/api/user/${first.body.userId}`, { as: admin });
    expectStatus(shown, 200);
    expect(shown.body).toMatchObject({
      email: person.email,
      role: 'NONE',
      active: false,
      coach: null,
    });
  });

  it('answers 401 without a token or with a token it cannot verify', async () => {
    expectProblem(await api.call('POST', '/api/login'), 401, 'unauthorized');
    expectProblem(
      await api.call('POST', '/api/login', { headers: { authorization: 'Bearer not.a.jwt' } }),
      401,
      'unauthorized',
    );
    const expired = await api.tokenFor({ expiresIn: '2 hours ago' });
    expectProblem(
      await api.call('POST', '/api/login', { headers: { authorization: `Bearer ${expired}` } }),
      401,
      'unauthorized',
    );
  });

  it('keeps inactive users out of every guarded call with 403 inactive_user', async () => {
    const person = await stranger();
    expectStatus(await api.call('POST', '/api/login', { as: person }), 200);
    expectProblem(await api.call('GET', '/api/appointments', { as: person }), 403, 'inactive_user');
    expectProblem(await api.call('GET', '/api/admin/client', { as: person }), 403, 'inactive_user');

    const inactiveAdmin = await api.signIn('ADMIN', { active: false });
    expectProblem(await api.call('GET', '/api/user', { as: inactiveAdmin }), 403, 'inactive_user');
    expectProblem(
      await api.call('POST', '/api/coach', {
        as: inactiveAdmin,
        body: { firstName: 'A', lastName: 'B', email: `${unique()}@x.example` },
      }),
      403,
      'inactive_user',
    );
    // …but may still refresh the session.
    expectStatus(await api.call('POST', '/api/login', { as: inactiveAdmin }), 200);
  });
});

describe('staff activation', () => {
  it('claims the prepared row at login and activates it with the shown code', async () => {
    const coach = await newCoach(api, admin, { firstName: 'Mara', lastName: 'Muster' });
    const email = `${unique('staff')}@example.test`;
    const created = await createStaff(email, 'COACH', coach.id);
    // The person registers with the address in another spelling.
    const person = await stranger(email.toUpperCase());

    const login = await api.call('POST', '/api/login', { as: person });
    expectStatus(login, 200);
    expect(login.body).toEqual({
      userId: created.user.id,
      // The address as the admin wrote it, shown in the header.
      email,
      role: 'COACH',
      active: false,
      coach: { id: coach.id, name: 'Mara Muster' },
      // A coach reads clinical content and holds appointments; an onboarding manager does not.
      permissions: ['readClinical', 'holdAppointments', 'openStaffPages'],
    });
    expectProblem(await api.call('GET', '/api/appointments', { as: person }), 403, 'inactive_user');

    const activated = await api.call('POST', '/api/user/activate', {
      as: person,
      body: { activationCode: created.activationCode },
    });
    expectStatus(activated, 200);
    expect(activated.body).toEqual({
      userId: created.user.id,
      // The address as the admin wrote it, shown in the header.
      email,
      role: 'COACH',
      active: true,
      coach: { id: coach.id, name: 'Mara Muster' },
      // A coach reads clinical content and holds appointments; an onboarding manager does not.
      permissions: ['readClinical', 'holdAppointments', 'openStaffPages'],
    });

    expectStatus(await api.call('GET', '/api/appointments', { as: person }), 200);
    const again = await api.call('POST', '/api/login', { as: person });
    expect(again.body).toEqual(activated.body);
    const shown = await api.call('GET', `/api/user/${created.user.id}`, { as: admin });
    expect(shown.body.active).toBe(true);
    expect(shown.body.activatedAt).not.toBeNull();
  });

  it('activates without a prior login, forgiving case and dashes in the code', async () => {
    const email = `${unique('om')}@example.test`;
    const created = await createStaff(email, 'ONBOARDING_MANAGER');
    const person = await stranger(email);
    const typed = created.activationCode.toLowerCase().replace(/-/g, ' ');

    const activated = await api.call('POST', '/api/user/activate', {
      as: person,
      body: { activationCode: typed },
    });
    expectStatus(activated, 200);
    expect(activated.body).toEqual({
      userId: created.user.id,
      // The address as the admin wrote it, shown in the header.
      email,
      role: 'ONBOARDING_MANAGER',
      active: true,
      coach: null,
      permissions: ['pickCoach', 'sendSignInLinks', 'openStaffPages'],
    });
    expectStatus(await api.call('GET', '/api/user', { as: person }), 200);
  });

  it('refuses a wrong code with 400 naming activationCode and leaves the account inactive', async () => {
    const email = `${unique('wrong')}@example.test`;
    const created = await createStaff(email, 'ADMIN');
    const person = await stranger(email);
    expectStatus(await api.call('POST', '/api/login', { as: person }), 200);

    const res = await api.call('POST', '/api/user/activate', {
      as: person,
      body: { activationCode: 'AAAA-BBBB-CCCC' },
    });
    expectFieldError(res, 'activationCode');

    const shown = await api.call('GET', `/api/user/${created.user.id}`, { as: admin });
    expect(shown.body.active).toBe(false);
    expectProblem(await api.call('GET', '/api/user', { as: person }), 403, 'inactive_user');
  });

  it('refuses a code that was issued for another e-mail address', async () => {
    const created = await createStaff(`${unique('owner')}@example.test`, 'ADMIN');
    const intruder = await stranger();
    expectStatus(await api.call('POST', '/api/login', { as: intruder }), 200);

    const res = await api.call('POST', '/api/user/activate', {
      as: intruder,
      body: { activationCode: created.activationCode },
    });
    expectFieldError(res, 'activationCode');

    const owner = await api.call('GET', `/api/user/${created.user.id}`, { as: admin });
    expect(owner.body.active).toBe(false);
    const login = await api.call('POST', '/api/login', { as: intruder });
    expect(login.body).toMatchObject({ role: 'NONE', active: false });
  });

  // docs/decisions/0045-accounts-coaches-activation.md: "a wrong code is 400, a used/already-active
  // account 409".
  it('answers 409 when a used code is entered again by the activated account', async () => {
    const email = `${unique('twice')}@example.test`;
    const created = await createStaff(email, 'ONBOARDING_MANAGER');
    const person = await stranger(email);
    const body = { activationCode: created.activationCode };
    expectStatus(await api.call('POST', '/api/user/activate', { as: person, body }), 200);

    expectProblem(
      await api.call('POST', '/api/user/activate', { as: person, body }),
      409,
      'activation_code_used',
    );
  });

  it('does not let a deactivated account bring itself back with its old code', async () => {
    const email = `${unique('gone')}@example.test`;
    const created = await createStaff(email, 'ONBOARDING_MANAGER');
    const person = await stranger(email);
    const body = { activationCode: created.activationCode };
    expectStatus(await api.call('POST', '/api/user/activate', { as: person, body }), 200);
    expectStatus(
      await api.call('POST', `/api/user/${created.user.id}`, {
        as: admin,
        body: { active: false },
      }),
      200,
    );

    expectProblem(
      await api.call('POST', '/api/user/activate', { as: person, body }),
      409,
      'activation_code_used',
    );
    const shown = await api.call('GET', `/api/user/${created.user.id}`, { as: admin });
    expect(shown.body.active).toBe(false);
  });

  // Contract: activateUser lists 429; docs/decisions/0045-accounts-coaches-activation.md: "it is
  // rate-limited (429)".
  it('rate-limits guessing of activation codes (429 with Retry-After)', async () => {
    const person = await stranger();
    const statuses: number[] = [];
    let retryAfter: unknown;
    for (let i = 0; i < 30; i++) {
      const res = await api.call('POST', '/api/user/activate', {
        as: person,
        body: { activationCode: `GUESS-${String(i).padStart(4, '0')}-0000` },
      });
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter = res.headers['retry-after'];
        break;
      }
    }
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  // docs/domain.md: a person who signed in before getting an account sees /notactive, which offers
  // the activation-code form; so an admin must be able to create their account afterwards.
  it('lets an admin create and the person activate an account for someone who signed in first', async () => {
    const person = await stranger();
    const first = await api.call('POST', '/api/login', { as: person });
    expect(first.body).toMatchObject({ role: 'NONE', active: false });

    const res = await api.call('POST', '/api/user', {
      as: admin,
      body: { email: person.email, role: 'ONBOARDING_MANAGER' },
    });
    expectStatus(res, 201);
    const activated = await api.call('POST', '/api/user/activate', {
      as: person,
      body: { activationCode: res.body.activationCode },
    });
    expectStatus(activated, 200);
    expect(activated.body).toMatchObject({ role: 'ONBOARDING_MANAGER', active: true });
    expectStatus(await api.call('GET', '/api/user', { as: person }), 200);
  });
});

describe('clients signing in', () => {
  const linkedUser = async (clientId: string) =>
    (
      await api.database.db
        .select({ userId: clients.userId })
        .from(clients)
        .where(eq(clients.id, clientId))
    )[0]?.userId;

  it('makes a NONE user active and links them to the client record with the same e-mail', async () => {
    const email = `${unique('klara')}@example.test`;
    const client = await newClient(api, admin, {
      email: email.replace(/^./, (c) => c.toUpperCase()),
    });
    const person = await stranger(email);

    const login = await api.call('POST', '/api/login', { as: person });
    expectStatus(login, 200);
    expect(login.body).toMatchObject({ role: 'NONE', active: true, coach: null });
    expect(await linkedUser(client.id)).toBe(login.body.userId);

    // Another person with a different address stays unlinked and inactive.
    const other = await stranger();
    const otherLogin = await api.call('POST', '/api/login', { as: other });
    expect(otherLogin.body).toMatchObject({ role: 'NONE', active: false });
  });

  it('does not hand an already linked client record to a second account', async () => {
    const email = `${unique('once')}@example.test`;
    const client = await newClient(api, admin, { email });
    const first = await api.call('POST', '/api/login', { as: await stranger(email) });
    expect(first.body.active).toBe(true);

    const second = await api.call('POST', '/api/login', { as: await stranger(email) });
    expectStatus(second, 200);
    expect(second.body).toMatchObject({ role: 'NONE', active: false });
    expect(await linkedUser(client.id)).toBe(first.body.userId);
  });

  // Contract (login): "A role-NONE user whose verified e-mail matches a client record without
  // user gets linked to it (and becomes active)" — not only on the very first sign-in: a person
  // who signed in, saw /notactive and then became a client must get access at the next login.
  it('links a NONE user who signed in before their client record existed at the next login', async () => {
    const person = await stranger();
    const first = await api.call('POST', '/api/login', { as: person });
    expect(first.body).toMatchObject({ role: 'NONE', active: false });

    const client = await newClient(api, admin, { email: person.email });
    const next = await api.call('POST', '/api/login', { as: person });
    expectStatus(next, 200);
    expect(next.body).toMatchObject({ userId: first.body.userId, role: 'NONE', active: true });
    expect(await linkedUser(client.id)).toBe(first.body.userId);
  });
});
