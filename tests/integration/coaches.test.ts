import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../support/api';
import {
  at,
  type Caller,
  expectProblem,
  expectStatus,
  ids,
  newAppointment,
  newClient,
  newCoach,
  SOME_ID,
  unique,
} from './fixtures';

let api: Api;
let admin: Caller;
let manager: Caller;

beforeAll(async () => {
  api = await createApi();
  admin = await api.signIn('ADMIN');
  manager = await api.signIn('ONBOARDING_MANAGER');
});
afterAll(() => api.close());

const getCoach = (id: string) => api.call('GET', `/api/coach/${id}`, { as: admin });
const search = (query: string, extra: Record<string, string | number> = {}) =>
  api.call('GET', '/api/coach/search', { as: admin, query: { query, ...extra } });
const coachCount = async () =>
  (await api.call('GET', '/api/coach', { as: admin, query: { limit: 1 } })).body
    .itemCount as number;

describe('coach records', () => {
  it('creates a coach with the documented defaults and reads it back', async () => {
    const email = `${unique('eva')}@coach.example`;
    const res = await api.call('POST', '/api/coach', {
      as: manager,
      body: { firstName: 'Eva', lastName: 'Ernst', email },
    });
    expectStatus(res, 201);
    expect(res.body).toMatchObject({
      firstName: 'Eva',
      lastName: 'Ernst',
      email,
      telephone: null,
      title: null,
      takesInitialAppointments: true,
      active: true,
    });
    const shown = await getCoach(res.body.id);
    expectStatus(shown, 200);
    expect(shown.body).toEqual(res.body);
  });

  it('updates the fields it is given and keeps the others', async () => {
    const coach = await newCoach(api, admin, { title: 'Dr.', telephone: '+49 30 123456' });
    const res = await api.call('PUT', `/api/coach/${coach.id}`, {
      as: manager,
      body: { lastName: 'Neumann', telephone: null, takesInitialAppointments: false },
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      id: coach.id,
      firstName: coach.firstName,
      lastName: 'Neumann',
      email: coach.email,
      title: 'Dr.',
      telephone: null,
      takesInitialAppointments: false,
      active: true,
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(coach.updatedAt));
    expect((await getCoach(coach.id)).body).toEqual(res.body);
  });

  it('answers 409 email_taken on create and update, whatever the case', async () => {
    const taken = await newCoach(api, admin);
    const before = await coachCount();
    const dup = await api.call('POST', '/api/coach', {
      as: admin,
      body: { firstName: 'Doppel', lastName: 'Gänger', email: taken.email.toUpperCase() },
    });
    expectProblem(dup, 409, 'email_taken');
    expect(await coachCount()).toBe(before);

    const other = await newCoach(api, admin);
    const update = await api.call('PUT', `/api/coach/${other.id}`, {
      as: admin,
      body: { email: taken.email },
    });
    expectProblem(update, 409, 'email_taken');
    expect((await getCoach(other.id)).body.email).toBe(other.email);

    // Keeping one's own address (in another case) is no conflict.
    const own = await api.call('PUT', `/api/coach/${other.id}`, {
      as: admin,
      body: { email: other.email.toUpperCase() },
    });
    expectStatus(own, 200);
  });

  it('answers 404 for unknown coaches', async () => {
    expectProblem(await getCoach(SOME_ID), 404, 'not_found');
    expectProblem(
      await api.call('PUT', `/api/coach/${SOME_ID}`, { as: admin, body: { title: 'Dr.' } }),
      404,
      'not_found',
    );
    expectProblem(
      await api.call('DELETE', `/api/coach/${SOME_ID}`, { as: admin }),
      404,
      'not_found',
    );
  });

  it('pages the list with itemCount, sorted by last name', async () => {
    for (const lastName of ['Zander', 'Albers', 'Meier']) await newCoach(api, admin, { lastName });
    const total = await coachCount();
    const seen: Array<{ id: string; lastName: string; firstName: string }> = [];
    for (let page = 1; (page - 1) * 4 < total; page++) {
      const res = await api.call('GET', '/api/coach', { as: admin, query: { page, limit: 4 } });
      expectStatus(res, 200);
      expect(res.body.itemCount).toBe(total);
      seen.push(...res.body.coaches);
    }
    expect(new Set(ids(seen)).size).toBe(total);
    const names = seen.map((c) => c.lastName);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});

describe('GET /api/coach/search', () => {
  let tag: string;
  let anna: { id: string };
  let annaTwo: { id: string };
  let percent: { id: string };
  let underscore: { id: string };

  beforeAll(async () => {
    tag = unique('s');
    anna = await newCoach(api, admin, {
      firstName: 'Anna',
      lastName: `Schmidt${tag}`,
      email: `anna.${tag}@praxis.example`,
    });
    annaTwo = await newCoach(api, admin, {
      firstName: 'Annabell',
      lastName: `Berg${tag}`,
      email: `berg.${tag}@praxis.example`,
    });
    percent = await newCoach(api, admin, {
      firstName: 'Paul',
      lastName: `Hundert%${tag}`,
      email: `paul.${tag}@praxis.example`,
    });
    underscore = await newCoach(api, admin, {
      firstName: 'Uta',
      lastName: `Unter${tag}`,
      email: `uta_${tag}@praxis.example`,
    });
  });

  it('finds coaches by first name, last name, full name and e-mail, ignoring case', async () => {
    const found = async (query: string) => ids((await search(query)).body.coaches);
    expect(await found(`SCHMIDT${tag}`)).toEqual([anna.id]);
    expect(await found(`anna schmidt${tag}`)).toEqual([anna.id]);
    expect((await found('ANNA')).sort()).toEqual(expect.arrayContaining([anna.id, annaTwo.id]));
    expect(await found(`BERG.${tag.toUpperCase()}@PRAXIS`)).toEqual([annaTwo.id]);
    expect(await found(`PAUL.${tag}@`)).toEqual([percent.id]);
  });

  it('treats % and _ as literal characters', async () => {
    const percentHits = ids((await search('%')).body.coaches);
    expect(percentHits).toContain(percent.id);
    expect(percentHits).not.toContain(anna.id);

    const underscoreHits = ids((await search('_')).body.coaches);
    expect(underscoreHits).toContain(underscore.id);
    expect(underscoreHits).not.toContain(anna.id);
    expect(underscoreHits).not.toContain(percent.id);

    expect(ids((await search(`t%${tag}`)).body.coaches)).toEqual([percent.id]);
    expect(ids((await search(`uta_${tag}`)).body.coaches)).toEqual([underscore.id]);
    expect(ids((await search(`utaX${tag}`)).body.coaches)).toEqual([]);
  });

  it('honours limit', async () => {
    const res = await search(tag, { limit: 2 });
    expectStatus(res, 200);
    expect(res.body.coaches).toHaveLength(2);
    expect((await search(tag)).body.coaches).toHaveLength(4);
  });

  // Contract summary and docs/decisions/0045-accounts-coaches-activation.md: "GET /coach/search
  // returns only active coaches".
  it('returns only active coaches', async () => {
    const gone = await newCoach(api, admin, { lastName: `Ehemals${tag}` });
    expectStatus(await api.call('DELETE', `/api/coach/${gone.id}`, { as: admin }), 204);
    expect(ids((await search(`Ehemals${tag}`)).body.coaches)).toEqual([]);
  });
});

describe('DELETE /api/coach/{id}', () => {
  it('deactivates the coach (GET shows active false) and keeps the record', async () => {
    const coach = await newCoach(api, admin);
    const before = await coachCount();
    const res = await api.call('DELETE', `/api/coach/${coach.id}`, { as: manager });
    expectStatus(res, 204);
    expect(res.body).toBe('');
    const shown = await getCoach(coach.id);
    expectStatus(shown, 200);
    expect(shown.body.active).toBe(false);
    expect(await coachCount()).toBe(before);
  });

  it('is refused while a live appointment lies ahead, and allowed once it is cancelled', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    // A past appointment does not block.
    await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(-3, 9),
    });
    const future = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(5, 10),
    });

    const refused = await api.call('DELETE', `/api/coach/${coach.id}`, { as: admin });
    expectProblem(refused, 409);
    expect((await getCoach(coach.id)).body.active).toBe(true);

    expectStatus(await api.call('DELETE', `/api/appointment/${future.id}`, { as: admin }), 200);
    expectStatus(await api.call('DELETE', `/api/coach/${coach.id}`, { as: admin }), 204);
    expect((await getCoach(coach.id)).body.active).toBe(false);
  });

  // Contract (deleteCoach) and docs/decisions/0045-accounts-coaches-activation.md name the code
  // coach_has_future_appointments.
  it('names the conflict coach_has_future_appointments', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(6, 10),
    });
    expectProblem(
      await api.call('DELETE', `/api/coach/${coach.id}`, { as: admin }),
      409,
      'coach_has_future_appointments',
    );
  });
});
