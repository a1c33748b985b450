import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communications } from '../../server/db/schema/index';
import { createApi, type Api } from '../support/api';
import {
  type Caller,
  expectFieldError,
  expectProblem,
  expectStatus,
  ids,
  newCoach,
  SOME_ID,
  unique,
} from './fixtures';

const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

let api: Api;
let admin: Caller & { userId: string };
let manager: Caller & { userId: string };
let superadmin: Caller & { userId: string };

beforeAll(async () => {
  api = await createApi();
  admin = await api.signIn('ADMIN');
  manager = await api.signIn('ONBOARDING_MANAGER');
  superadmin = await api.signIn('SUPERADMIN');
});
afterAll(() => api.close());

const email = (prefix = 'user') => `${unique(prefix)}@example.test`;

async function createUser(as: Caller, body: Record<string, unknown>) {
  return api.call('POST', '/api/user', { as, body });
}
async function getUser(id: string) {
  const res = await api.call('GET', `/api/user/${id}`, { as: admin });
  expectStatus(res, 200);
  return res.body;
}
const userCount = async () =>
  (await api.call('GET', '/api/user', { as: admin, query: { limit: 1 } })).body.itemCount as number;

describe('POST /api/user', () => {
  it('creates an inactive user and shows the activation code once', async () => {
    const coach = await newCoach(api, admin, { firstName: 'Jana', lastName: 'Jung' });
    const address = email('coach');
    const res = await createUser(admin, { email: address, role: 'COACH', coachId: coach.id });
    expectStatus(res, 201);
    expect(res.body.activationCode).toMatch(CODE);
    expect(res.body.user).toMatchObject({
      email: address,
      role: 'COACH',
      active: false,
      activatedAt: null,
      coach: { id: coach.id, firstName: 'Jana', lastName: 'Jung' },
    });

    const shown = await getUser(res.body.user.id);
    expect(shown).toEqual(res.body.user);
    expect(JSON.stringify(shown)).not.toContain(res.body.activationCode);
    const list = await api.call('GET', '/api/user', { as: admin, query: { limit: 100 } });
    expect(JSON.stringify(list.body)).not.toContain(res.body.activationCode);
    expect(ids(list.body.users)).toContain(res.body.user.id);
  });

  it('mails a new staff member the way to activation, without the code; a NONE account gets no mail', async () => {
    const address = email('staffmail');
    const res = await createUser(admin, { email: address, role: 'ONBOARDING_MANAGER' });
    expectStatus(res, 201);
    const mailsTo = (to: string) =>
      api.database.db.select().from(communications).where(eq(communications.recipient, to));
    const [mail, ...more] = await mailsTo(address);
    expect(more).toHaveLength(0);
    expect(mail).toMatchObject({
      channel: 'email',
      template: 'staff_invitation',
      status: 'queued',
    });
    expect(mail!.body).toMatch(/https?:\/\/[^\s]+\/activate\b/);
    expect(mail!.body).toContain('Onboarding-Manager:in');
    expect(mail!.body).not.toContain(res.body.activationCode);

    const none = email('nonemail');
    expectStatus(await createUser(admin, { email: none, role: 'NONE' }), 201);
    expect(await mailsTo(none)).toHaveLength(0);
  });

  it('draws a different code for every user', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await createUser(manager, { email: email('nc'), role: 'NONE' });
      expectStatus(res, 201);
      codes.add(res.body.activationCode);
    }
    expect(codes.size).toBe(3);
  });

  it('answers 409 email_taken for an address in use, whatever its case', async () => {
    const address = email('dup');
    expectStatus(await createUser(admin, { email: address, role: 'ADMIN' }), 201);
    const before = await userCount();
    expectProblem(
      await createUser(admin, { email: address.toUpperCase(), role: 'ONBOARDING_MANAGER' }),
      409,
      'email_taken',
    );
    expect(await userCount()).toBe(before);
  });

  it('needs the coach record for a COACH account and refuses an unknown one', async () => {
    const before = await userCount();
    expectFieldError(await createUser(admin, { email: email(), role: 'COACH' }), 'coachId');
    expectFieldError(
      await createUser(admin, { email: email(), role: 'COACH', coachId: null }),
      'coachId',
    );
    expectFieldError(
      await createUser(admin, { email: email(), role: 'COACH', coachId: SOME_ID }),
      'coachId',
    );
    expect(await userCount()).toBe(before);
  });

  it('refuses to hand out roles above the caller (403 role_not_assignable)', async () => {
    const before = await userCount();
    expectProblem(
      await createUser(manager, { email: email(), role: 'ADMIN' }),
      403,
      'role_not_assignable',
    );
    expectProblem(
      await createUser(manager, { email: email(), role: 'SUPERADMIN' }),
      403,
      'role_not_assignable',
    );
    expectProblem(
      await createUser(admin, { email: email(), role: 'SUPERADMIN' }),
      403,
      'role_not_assignable',
    );
    expect(await userCount()).toBe(before);

    expectStatus(await createUser(manager, { email: email(), role: 'ONBOARDING_MANAGER' }), 201);
    expectStatus(await createUser(admin, { email: email(), role: 'ADMIN' }), 201);
    expectStatus(await createUser(superadmin, { email: email(), role: 'SUPERADMIN' }), 201);
  });
});

describe('GET /api/user', () => {
  it('pages through all users with itemCount, newest first', async () => {
    for (let i = 0; i < 3; i++) {
      expectStatus(await createUser(admin, { email: email('page'), role: 'NONE' }), 201);
    }
    const total = await userCount();
    const seen: string[] = [];
    const createdAts: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 3); page++) {
      const res = await api.call('GET', '/api/user', { as: admin, query: { page, limit: 3 } });
      expectStatus(res, 200);
      expect(res.body.itemCount).toBe(total);
      expect(res.body.users.length).toBe(Math.min(3, total - (page - 1) * 3));
      seen.push(...ids(res.body.users));
      createdAts.push(...res.body.users.map((u: { createdAt: string }) => u.createdAt));
    }
    expect(new Set(seen).size).toBe(total);
    expect([...createdAts].sort().reverse()).toEqual(createdAts);

    const beyond = await api.call('GET', '/api/user', {
      as: admin,
      query: { page: Math.ceil(total / 3) + 1, limit: 3 },
    });
    expect(beyond.body).toMatchObject({ users: [], itemCount: total });

    const defaults = await api.call('GET', '/api/user', { as: admin });
    expect(defaults.body.users.length).toBe(Math.min(10, total));
  });

  it('answers 404 for an unknown id', async () => {
    expectProblem(await api.call('GET', `/api/user/${SOME_ID}`, { as: admin }), 404, 'not_found');
    expectProblem(
      await api.call('POST', `/api/user/${SOME_ID}`, { as: admin, body: { active: true } }),
      404,
      'not_found',
    );
  });
});

describe('POST /api/user/{id}', () => {
  it('changes role, active flag and coach link', async () => {
    const created = await createUser(admin, { email: email('upd'), role: 'NONE' });
    const id = created.body.user.id;
    const coach = await newCoach(api, admin, { firstName: 'Otto', lastName: 'Ober' });

    const res = await api.call('POST', `/api/user/${id}`, {
      as: admin,
      body: { role: 'COACH', coachId: coach.id, active: true },
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      id,
      role: 'COACH',
      active: true,
      coach: { id: coach.id, firstName: 'Otto', lastName: 'Ober' },
    });
    expect(await getUser(id)).toEqual(res.body);

    const back = await api.call('POST', `/api/user/${id}`, {
      as: admin,
      body: { role: 'ADMIN', coachId: null, active: false },
    });
    expectStatus(back, 200);
    expect(back.body).toMatchObject({ role: 'ADMIN', active: false, coach: null });
    expect(await getUser(id)).toMatchObject({ role: 'ADMIN', active: false, coach: null });
  });

  it('keeps a COACH account linked to a coach record', async () => {
    const coach = await newCoach(api, admin);
    const created = await createUser(admin, { email: email(), role: 'COACH', coachId: coach.id });
    const id = created.body.user.id;
    expectFieldError(
      await api.call('POST', `/api/user/${id}`, { as: admin, body: { coachId: null } }),
      'coachId',
    );
    expectFieldError(
      await api.call('POST', `/api/user/${id}`, { as: admin, body: { coachId: SOME_ID } }),
      'coachId',
    );
    const plain = await createUser(admin, { email: email(), role: 'NONE' });
    expectFieldError(
      await api.call('POST', `/api/user/${plain.body.user.id}`, {
        as: admin,
        body: { role: 'COACH' },
      }),
      'coachId',
    );
    expect((await getUser(id)).coach.id).toBe(coach.id);
    expect((await getUser(plain.body.user.id)).role).toBe('NONE');
  });

  it('refuses role escalation and lets only a SUPERADMIN touch a SUPERADMIN', async () => {
    const coach = await newCoach(api, admin);
    const coachUser = (
      await createUser(admin, { email: email(), role: 'COACH', coachId: coach.id })
    ).body.user;
    const adminUser = (await createUser(admin, { email: email(), role: 'ADMIN' })).body.user;
    const superUser = (await createUser(superadmin, { email: email(), role: 'SUPERADMIN' })).body
      .user;

    const refused = async (as: Caller, id: string, body: object) =>
      expectProblem(
        await api.call('POST', `/api/user/${id}`, { as, body }),
        403,
        'role_not_assignable',
      );

    await refused(manager, coachUser.id, { role: 'ADMIN' });
    await refused(manager, adminUser.id, { active: true });
    await refused(admin, coachUser.id, { role: 'SUPERADMIN' });
    await refused(admin, superUser.id, { active: true });
    await refused(manager, superUser.id, { role: 'NONE' });

    expect(await getUser(coachUser.id)).toMatchObject({ role: 'COACH', active: false });
    expect(await getUser(adminUser.id)).toMatchObject({ role: 'ADMIN', active: false });
    expect(await getUser(superUser.id)).toMatchObject({ role: 'SUPERADMIN', active: false });

    const bySuper = await api.call('POST', `/api/user/${superUser.id}`, {
      as: superadmin,
      body: { active: true },
    });
    expectStatus(bySuper, 200);
    expect(bySuper.body.active).toBe(true);
    const promoted = await api.call('POST', `/api/user/${coachUser.id}`, {
      as: admin,
      body: { role: 'ADMIN' },
    });
    expectStatus(promoted, 200);
    expect(promoted.body.role).toBe('ADMIN');
  });

  it('refuses self-deactivation and a change of one’s own role', async () => {
    const res = await api.call('POST', `/api/user/${admin.userId}`, {
      as: admin,
      body: { active: false },
    });
    expectProblem(res, 403);
    const demote = await api.call('POST', `/api/user/${admin.userId}`, {
      as: admin,
      body: { role: 'NONE' },
    });
    expectProblem(demote, 403);
    expect(await getUser(admin.userId)).toMatchObject({ role: 'ADMIN', active: true });
    expectStatus(await api.call('GET', '/api/user', { as: admin }), 200);
  });

  it('locks a deactivated user out at once (403 inactive_user)', async () => {
    const victim = await api.signIn('ONBOARDING_MANAGER');
    expectStatus(await api.call('GET', '/api/user', { as: victim }), 200);
    expectStatus(
      await api.call('POST', `/api/user/${victim.userId}`, { as: admin, body: { active: false } }),
      200,
    );
    expectProblem(await api.call('GET', '/api/user', { as: victim }), 403, 'inactive_user');
  });

  // docs/decisions/0045-accounts-coaches-activation.md: "POST /user/{id} … 409 when the coach is
  // already linked to another user."
  it('answers 409 when the coach record is already linked to another user', async () => {
    const coach = await newCoach(api, admin);
    const first = await createUser(admin, { email: email(), role: 'COACH', coachId: coach.id });
    expectStatus(first, 201);
    const second = (await createUser(admin, { email: email(), role: 'NONE' })).body.user;

    const res = await api.call('POST', `/api/user/${second.id}`, {
      as: admin,
      body: { role: 'COACH', coachId: coach.id },
    });
    expectProblem(res, 409, 'coach_already_linked');
    expect(await getUser(second.id)).toMatchObject({ role: 'NONE', coach: null });

    // Keeping one's own link is no conflict.
    expectStatus(
      await api.call('POST', `/api/user/${first.body.user.id}`, {
        as: admin,
        body: { coachId: coach.id },
      }),
      200,
    );
  });

  it('answers 409 coach_already_linked when creating a second account for a coach record', async () => {
    const coach = await newCoach(api, admin);
    expectStatus(
      await createUser(admin, { email: email(), role: 'COACH', coachId: coach.id }),
      201,
    );
    const before = await userCount();
    const res = await createUser(admin, { email: email(), role: 'COACH', coachId: coach.id });
    expectProblem(res, 409, 'coach_already_linked');
    expect(await userCount()).toBe(before);
  });

  it('links a coach record to one account also when two creations race', async () => {
    const coach = await newCoach(api, admin);
    const answers = await Promise.all(
      [1, 2, 3].map(() => createUser(admin, { email: email(), role: 'COACH', coachId: coach.id })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409)) {
      expectProblem(res, 409, 'coach_already_linked');
    }
  });
});
