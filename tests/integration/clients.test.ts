import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, clientSearchPrefixes } from '../../server/db/schema/index';
import { createApi, type Api } from '../support/api';
import {
  at,
  type Caller,
  expectFieldError,
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

const getClient = (id: string, as: Caller = admin) =>
  api.call('GET', `/api/admin/client/${id}`, { as });
const clientCount = async () =>
  (
    await api.call('GET', '/api/admin/client', {
      as: admin,
      query: { limit: 1, showClosedSessions: true },
    })
  ).body.itemCount as number;

describe('client records', () => {
  it('creates a client with every field and reads it back', async () => {
    const coach = await newCoach(api, admin, { firstName: 'Hanna', lastName: 'Hof' });
    const previous = await newCoach(api, admin);
    const email = `${unique('voll')}@mail.example`;
    const body = {
      firstName: 'Vera',
      lastName: 'Vollständig',
      email,
      yearOfBirth: 1971,
      street: 'Lindenstraße 5',
      city: 'Wien',
      postalCode: '1010',
      country: 'AT',
      telephone: '+49 221 123456',
      additionalTelephoneNumbers: '0170 1234567, 0221/654321',
      hasNotSignedRequiredContract: true,
      rejectionReasonType: null,
      rejectionReasonNotes: null,
      insurer: 'AOK Rheinland',
      insurerCode: 'X123456789',
      campaign: 'HERBST',
      clientType: 'relative',
      contactPerson: {
        firstName: 'Rolf',
        lastName: 'Vollständig',
        email: 'rolf@mail.example',
        telephone: '0221 99',
      },
      howDidYouHearAboutUs: 'Hausarzt',
      diagnosis: 'F32.1',
      initialDiagnosis: '2024-03-15',
      mentalStressIndicator: 7,
      paidBySponsor: true,
      wantsToProvideRecordingsForResearch: true,
      notifyViaSms: false,
      notes: 'Ruft lieber vormittags an.',
      coachedById: coach.id,
      existingClientOfCoachId: previous.id,
    };
    // With the clinical fields: a role that reads them.
    const res = await api.call('POST', '/api/admin/client', { as: admin, body });
    expectStatus(res, 201);
    const { coachedById: _c, ...stored } = body;
    expect(res.body).toMatchObject({
      ...stored,
      sessionsClosedOn: null,
      coachedBy: { id: coach.id, firstName: 'Hanna', lastName: 'Hof' },
    });
    const shown = await getClient(res.body.id);
    expectStatus(shown, 200);
    expect(shown.body).toEqual(res.body);

    // The list reads its rows another way (one JSON array per row): the same record, field
    // for field, with the session closed so that every timestamp is set.
    const closed = await api.call('POST', `/api/admin/client/${res.body.id}/close-sessions`, {
      as: admin,
    });
    expectStatus(closed, 200);
    const record = (await getClient(res.body.id)).body;
    expect(record.sessionsClosedOn).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const search of [email, undefined]) {
      const listed = await api.call('GET', '/api/admin/client', {
        as: admin,
        query: { ...(search ? { search } : { coach: coach.id }), showClosedSessions: true },
      });
      expectStatus(listed, 200);
      expect(listed.body.clients).toEqual([record]);
    }
  });

  it('fills in the documented defaults', async () => {
    const res = await api.call('POST', '/api/admin/client', {
      as: admin,
      body: { firstName: 'Mini', lastName: 'Mal' },
    });
    expectStatus(res, 201);
    expect(res.body).toMatchObject({
      email: null,
      country: 'DE',
      clientType: 'self',
      contactPerson: null,
      notifyViaSms: false,
      hasNotSignedRequiredContract: false,
      paidBySponsor: false,
      wantsToProvideRecordingsForResearch: false,
      sessionsClosedOn: null,
      coachedBy: null,
      existingClientOfCoachId: null,
    });
  });

  it('records when staff enter an SMS consent, keeps it while it stands and drops it when withdrawn', async () => {
    const consentOf = async (id: string) =>
      (
        await api.database.db
          .select({ at: clients.smsConsentAt })
          .from(clients)
          .where(eq(clients.id, id))
      )[0]!.at;
    const client = await newClient(api, admin, { telephone: '0170 5550123', notifyViaSms: true });
    const given = await consentOf(client.id);
    expect(given).not.toBeNull();
    const put = (body: Record<string, unknown>) =>
      api.call('PUT', `/api/admin/client/${client.id}`, { as: admin, body });
    expectStatus(await put({ notifyViaSms: true, city: 'Köln' }), 200);
    expect(await consentOf(client.id)).toBe(given);
    expectStatus(await put({ notifyViaSms: false }), 200);
    expect(await consentOf(client.id)).toBeNull();
  });

  it('updates the given fields and keeps the others', async () => {
    const client = await newClient(api, admin, { city: 'Bonn', yearOfBirth: 1980, notes: 'alt' });
    const coach = await newCoach(api, admin);
    const res = await api.call('PUT', `/api/admin/client/${client.id}`, {
      as: admin,
      body: {
        city: 'Berlin',
        notes: null,
        rejectionReasonType: 'not_reachable',
        coachedById: coach.id,
      },
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      id: client.id,
      firstName: client.firstName,
      yearOfBirth: 1980,
      city: 'Berlin',
      notes: null,
      rejectionReasonType: 'not_reachable',
      coachedBy: { id: coach.id },
    });
    expect((await getClient(client.id)).body).toEqual(res.body);
  });

  it('round-trips the contact person', async () => {
    const client = await newClient(api, admin, {
      clientType: 'relative',
      contactPerson: { firstName: 'Tom', lastName: 'Sohn' },
    });
    expect(client.contactPerson).toEqual({
      firstName: 'Tom',
      lastName: 'Sohn',
      email: null,
      telephone: null,
    });

    const full = {
      firstName: 'Tina',
      lastName: 'Tochter',
      email: 'tina@mail.example',
      telephone: '0171 555',
    };
    const updated = await api.call('PUT', `/api/admin/client/${client.id}`, {
      as: admin,
      body: { contactPerson: full },
    });
    expectStatus(updated, 200);
    expect((await getClient(client.id)).body.contactPerson).toEqual(full);

    const cleared = await api.call('PUT', `/api/admin/client/${client.id}`, {
      as: admin,
      body: { clientType: 'self', contactPerson: null },
    });
    expectStatus(cleared, 200);
    expect((await getClient(client.id)).body).toMatchObject({
      clientType: 'self',
      contactPerson: null,
    });
  });

  // docs/decisions/0044-client-field-rules.md: "contactPerson is required when clientType =
  // relative".
  it('requires a contact person for a relative', async () => {
    const before = await clientCount();
    const res = await api.call('POST', '/api/admin/client', {
      as: admin,
      body: { firstName: 'Ohne', lastName: 'Kontakt', clientType: 'relative' },
    });
    expectFieldError(res, 'contactPerson');
    expect(await clientCount()).toBe(before);
  });

  it('checks the contact person of a relative on the record an update leaves', async () => {
    const self = await newClient(api, admin);
    const toRelative = await api.call('PUT', `/api/admin/client/${self.id}`, {
      as: admin,
      body: { clientType: 'relative' },
    });
    expectFieldError(toRelative, 'contactPerson');
    expect((await getClient(self.id)).body.clientType).toBe('self');

    const contactPerson = { firstName: 'Rita', lastName: 'Rat' };
    const relative = await newClient(api, admin, { clientType: 'relative', contactPerson });
    expectFieldError(
      await api.call('PUT', `/api/admin/client/${relative.id}`, {
        as: admin,
        body: { contactPerson: null },
      }),
      'contactPerson',
    );
    // Other changes of a relative's record need not repeat the contact person.
    expectStatus(
      await api.call('PUT', `/api/admin/client/${relative.id}`, {
        as: admin,
        body: { notes: 'ok' },
      }),
      200,
    );
    expect((await getClient(relative.id)).body.contactPerson).toMatchObject(contactPerson);
  });

  it('answers 409 email_taken for an address another client has, whatever its case', async () => {
    const email = `${unique('dup')}@mail.example`;
    await newClient(api, admin, { email });
    const before = await clientCount();
    const dup = await api.call('POST', '/api/admin/client', {
      as: admin,
      body: { firstName: 'Zweit', lastName: 'Konto', email: email.toUpperCase() },
    });
    expectProblem(dup, 409, 'email_taken');
    expect(await clientCount()).toBe(before);

    const other = await newClient(api, admin, { email: `${unique('own')}@mail.example` });
    const update = await api.call('PUT', `/api/admin/client/${other.id}`, {
      as: admin,
      body: { email },
    });
    expectProblem(update, 409, 'email_taken');
    expect((await getClient(other.id)).body.email).toBe(other.email);

    // Clients without an address never collide.
    await newClient(api, admin, { email: null });
    await newClient(api, admin, { email: null });
  });

  // Contract (createClient, updateClient): an unknown coach in the body is bad input (400
  // naming the field), not a missing resource: 404 is kept for ids in the path.
  it('answers 400 naming coachedById or existingClientOfCoachId when the coach is unknown', async () => {
    const before = await clientCount();
    const body = { firstName: 'Unbe', lastName: 'Kannt' };
    expectFieldError(
      await api.call('POST', '/api/admin/client', {
        as: admin,
        body: { ...body, coachedById: SOME_ID },
      }),
      'coachedById',
    );
    expectFieldError(
      await api.call('POST', '/api/admin/client', {
        as: admin,
        body: { ...body, existingClientOfCoachId: SOME_ID },
      }),
      'existingClientOfCoachId',
    );
    expect(await clientCount()).toBe(before);

    const client = await newClient(api, admin);
    expectFieldError(
      await api.call('PUT', `/api/admin/client/${client.id}`, {
        as: admin,
        body: { coachedById: SOME_ID },
      }),
      'coachedById',
    );
    expect((await getClient(client.id)).body.coachedBy).toBeNull();
  });

  it('lets only admins and onboarding managers hand a client to another coach', async () => {
    const coach = await api.signIn('COACH');
    const other = await newCoach(api, admin);
    const client = await newClient(api, admin, { coachedById: coach.coachId });
    const events = async () =>
      (await api.call('GET', '/api/businessevents', { as: admin, query: { clientId: client.id } }))
        .body.itemCount as number;
    const eventsBefore = await events();
    for (const field of ['coachedById', 'existingClientOfCoachId'] as const) {
      expectProblem(
        await api.call('PUT', `/api/admin/client/${client.id}`, {
          as: coach,
          body: { notes: 'Übergabe', [field]: other.id },
        }),
        403,
        'forbidden_reassign',
      );
    }
    const unchanged = (await getClient(client.id)).body;
    expect(unchanged.coachedBy.id).toBe(coach.coachId);
    expect(unchanged.existingClientOfCoachId).toBeNull();
    expect(unchanged.notes).toBeNull();
    expect(await events()).toBe(eventsBefore);
    // The form sends the record back whole: the current coach, unchanged, is fine.
    const kept = await api.call('PUT', `/api/admin/client/${client.id}`, {
      as: coach,
      body: { notes: 'Notiz', coachedById: coach.coachId, existingClientOfCoachId: null },
    });
    expectStatus(kept, 200);
    expect(kept.body.notes).toBe('Notiz');
    for (const staff of [manager, admin]) {
      const moved = await api.call('PUT', `/api/admin/client/${client.id}`, {
        as: staff,
        body: { coachedById: staff === admin ? coach.coachId : other.id },
      });
      expectStatus(moved, 200);
      expect(moved.body.coachedBy.id).toBe(staff === admin ? coach.coachId : other.id);
    }
  });

  it.each([
    ['firstName', { firstName: 'K'.repeat(300) }],
    ['firstName', { firstName: '   ' }],
    ['postalCode', { postalCode: 'ABCDE' }],
    ['postalCode', { country: 'AT', postalCode: '10115' }],
    ['initialDiagnosis', { initialDiagnosis: '2099-01-01' }],
    ['yearOfBirth', { yearOfBirth: 2099 }],
    ['yearOfBirth', { yearOfBirth: 1901 }],
    ['telephone', { telephone: '12345' }],
    ['additionalTelephoneNumbers', { additionalTelephoneNumbers: '0151 2345678, 99' }],
    ['insurerCode', { insurerCode: 'A1' }],
    ['email', { email: '123456@example' }],
  ])(
    'refuses what sign-up refuses in %s, on create and on edit, changing nothing',
    async (field, change) => {
      const before = await clientCount();
      expectFieldError(
        await api.call('POST', '/api/admin/client', {
          as: field === 'initialDiagnosis' ? admin : manager,
          body: { firstName: 'Klara', lastName: unique('Regel'), ...change },
        }),
        field,
      );
      expect(await clientCount()).toBe(before);
      const client = await newClient(api, admin, { postalCode: '10115' });
      expectFieldError(
        await api.call('PUT', `/api/admin/client/${client.id}`, { as: admin, body: change }),
        field,
      );
      expect((await getClient(client.id)).body).toEqual(client);
    },
  );

  it('re-checks the stored postal code when only the country changes', async () => {
    const client = await newClient(api, admin, { postalCode: '10115' });
    expectFieldError(
      await api.call('PUT', `/api/admin/client/${client.id}`, {
        as: admin,
        body: { country: 'AT' },
      }),
      'postalCode',
    );
    const moved = await api.call('PUT', `/api/admin/client/${client.id}`, {
      as: admin,
      body: { country: 'AT', postalCode: '1010', initialDiagnosis: '2019-05-01' },
    });
    expectStatus(moved, 200);
    expect(moved.body).toMatchObject({
      country: 'AT',
      postalCode: '1010',
      initialDiagnosis: '2019-05-01',
    });
  });

  it('answers 404 for unknown clients', async () => {
    expectProblem(await getClient(SOME_ID), 404, 'not_found');
    expectProblem(
      await api.call('PUT', `/api/admin/client/${SOME_ID}`, { as: admin, body: { notes: 'x' } }),
      404,
      'not_found',
    );
    expectProblem(
      await api.call('DELETE', `/api/admin/client/${SOME_ID}`, { as: admin }),
      404,
      'not_found',
    );
    expectProblem(
      await api.call('POST', `/api/admin/client/${SOME_ID}/close-sessions`, { as: admin }),
      404,
      'not_found',
    );
    expectProblem(
      await api.call('POST', `/api/admin/client/${SOME_ID}/open-sessions`, { as: admin }),
      404,
      'not_found',
    );
  });

  it('closes and reopens the sessions, 409 when already in that state', async () => {
    const client = await newClient(api, admin);
    const closed = await api.call('POST', `/api/admin/client/${client.id}/close-sessions`, {
      as: admin,
    });
    expectStatus(closed, 200);
    expect(closed.body.sessionsClosedOn).not.toBeNull();
    expect((await getClient(client.id)).body.sessionsClosedOn).toBe(closed.body.sessionsClosedOn);
    expectProblem(
      await api.call('POST', `/api/admin/client/${client.id}/close-sessions`, { as: admin }),
      409,
    );
    expect((await getClient(client.id)).body.sessionsClosedOn).toBe(closed.body.sessionsClosedOn);

    const opened = await api.call('POST', `/api/admin/client/${client.id}/open-sessions`, {
      as: manager,
    });
    expectStatus(opened, 200);
    expect(opened.body.sessionsClosedOn).toBeNull();
    expectProblem(
      await api.call('POST', `/api/admin/client/${client.id}/open-sessions`, { as: admin }),
      409,
    );
    expect((await getClient(client.id)).body.sessionsClosedOn).toBeNull();
  });

  it('erases a client with their appointments (ADMIN only)', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const a1 = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(3, 9),
    });
    const a2 = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(4, 9),
    });

    expectProblem(await api.call('DELETE', `/api/admin/client/${client.id}`, { as: manager }), 403);
    expectStatus(await getClient(client.id), 200);

    const res = await api.call('DELETE', `/api/admin/client/${client.id}`, { as: admin });
    expectStatus(res, 204);
    expectProblem(await getClient(client.id), 404, 'not_found');
    for (const a of [a1, a2]) {
      expectProblem(
        await api.call('GET', `/api/appointment/${a.id}`, { as: admin }),
        404,
        'not_found',
      );
    }
    const left = await api.call('GET', '/api/appointments', {
      as: admin,
      query: { clientId: client.id },
    });
    expect(left.body).toMatchObject({ appointments: [], itemCount: 0 });
    // The coach's time is free again.
    await newAppointment(api, admin, {
      clientId: (await newClient(api, admin)).id,
      coachId: coach.id,
      startDate: at(3, 9),
    });
    expectProblem(await api.call('DELETE', `/api/admin/client/${client.id}`, { as: admin }), 404);
  });
});

describe('GET /api/admin/client filters, sorting and paging', () => {
  let tag: string;
  let coachA: { id: string };
  let coachB: { id: string };
  let c1: any, c2: any, c3: any, c4: any, c5: any;

  /** Ids of the fixture clients matching the filter (scoped by the tag in their names). */
  async function listed(query: Record<string, string | number | boolean> = {}, as: Caller = admin) {
    const res = await api.call('GET', '/api/admin/client', {
      as,
      query: { search: tag, limit: 100, ...query },
    });
    expectStatus(res, 200);
    expect(res.body.itemCount).toBe(res.body.clients.length);
    return ids(res.body.clients);
  }
  const same = async (
    query: Record<string, string | number | boolean>,
    expected: Array<{ id: string }>,
  ) => expect((await listed(query)).sort()).toEqual(ids(expected).sort());

  beforeAll(async () => {
    tag = unique('F');
    coachA = await newCoach(api, admin);
    coachB = await newCoach(api, admin);
    c1 = await newClient(api, admin, {
      firstName: 'Anna',
      lastName: `Alpha-${tag}`,
      email: `anna.${tag}@mail.example`,
      yearOfBirth: 1980,
      insurer: `AOK-${tag}`,
      insurerCode: `VNR${tag}`,
      campaign: `SPRING-${tag}`,
      wantsToProvideRecordingsForResearch: true,
      telephone: '+49 151 2345678',
      coachedById: coachA.id,
    });
    c2 = await newClient(api, admin, {
      firstName: 'Bernd',
      lastName: `Beta-${tag}`,
      yearOfBirth: 1975,
      clientType: 'relative',
      contactPerson: { firstName: 'Rita', lastName: 'Beta' },
      insurer: `TK-${tag}`,
      campaign: `SUMMER-${tag}`,
      telephone: '030 9876543',
      additionalTelephoneNumbers: '0170-1112233, 089 445566',
      coachedById: coachB.id,
    });
    c3 = await newClient(api, admin, {
      firstName: 'Carla',
      lastName: `Gamma-${tag}`,
      yearOfBirth: 1990,
      insurer: `AOK-${tag}`,
      rejectionReasonType: 'no_interest',
      coachedById: coachA.id,
    });
    c4 = await newClient(api, admin, {
      firstName: 'Dora',
      lastName: `Delta-${tag}`,
      yearOfBirth: 1965,
    });
    c5 = await newClient(api, admin, {
      firstName: 'Emil',
      lastName: `Epsilon-${tag}`,
      yearOfBirth: 2001,
      campaign: `SPRING-${tag}`,
    });
    expectStatus(
      await api.call('POST', `/api/admin/client/${c4.id}/close-sessions`, { as: admin }),
      200,
    );

    const book = (
      client: { id: string },
      coach: { id: string },
      day: number,
      hour: number,
      type: string,
    ) =>
      newAppointment(api, admin, {
        clientId: client.id,
        coachId: coach.id,
        startDate: at(day, hour),
        appointmentType: type,
      });
    await book(c1, coachA, 20, 9, 'initial');
    await book(c2, coachB, 20, 10, 'first');
    const cancelledInitial = await book(c2, coachB, 20, 12, 'initial');
    await book(c3, coachA, 21, 9, 'followup');
    await book(c3, coachA, 22, 9, 'followup');
    const cancelledFollowup = await book(c3, coachA, 23, 9, 'followup');
    await book(c5, coachB, 21, 11, 'first-arztkonsultation');
    await book(c5, coachB, 22, 11, 'followup-arztkonsultation');
    for (const a of [cancelledInitial, cancelledFollowup]) {
      expectStatus(await api.call('DELETE', `/api/appointment/${a.id}`, { as: admin }), 200);
    }
  });

  it('searches words of first name, last name, e-mail and insurer code by their start, ignoring case', async () => {
    expect(await listed({ search: `ALPHA-${tag}` })).toEqual([c1.id]);
    expect(await listed({ search: `anna alpha-${tag}` })).toEqual([c1.id]);
    expect(await listed({ search: `Anna.${tag}@MAIL` })).toEqual([c1.id]);
    expect(await listed({ search: `vnr${tag}` })).toEqual([c1.id]);
    expect(await listed({ search: `carla` })).toContain(c3.id);
    expect(await listed({ search: `%${tag}` })).toEqual([]);
    expect(await listed({ search: 'Alph_' })).toEqual([]);
  });

  it('finds words while they are typed and follows renames and closed sessions', async () => {
    expect(await listed({ search: `${tag} alp` })).toEqual([c1.id]);
    expect(await listed({ search: `${tag} lpha` })).toEqual([]);
    const other = unique('G');
    const c6 = await newClient(api, admin, { firstName: 'Olga', lastName: `Omega-${other}` });
    expect(await listed({ search: `${other} ome` })).toEqual([c6.id]);
    const renamed = await api.call('PUT', `/api/admin/client/${c6.id}`, {
      as: admin,
      body: { lastName: `Zeta-${other}` },
    });
    expectStatus(renamed, 200);
    expect(await listed({ search: `${other} ome` })).toEqual([]);
    expect(await listed({ search: `${other} ZET` })).toEqual([c6.id]);
    expectStatus(
      await api.call('POST', `/api/admin/client/${c6.id}/close-sessions`, { as: admin }),
      200,
    );
    expect(await listed({ search: other })).toEqual([]);
    expect(await listed({ search: other, showClosedSessions: true })).toEqual([c6.id]);

    // A whole address finds its owner alone, though "a" starts another client's name.
    const mailA = await newClient(api, admin, { firstName: 'Ida', email: `race-a-${other}@x.org` });
    await newClient(api, admin, { firstName: 'Anna', email: `race-b-${other}@x.org` });
    expect(await listed({ search: `RACE-A-${other}@x.org` })).toEqual([mailA.id]);
    expect(await listed({ search: `race-a-${other}@` })).toEqual([mailA.id]);
  });

  it('finds a word by a start of any length, up to the stored eight letters and past them', async () => {
    // Seven random letters: a word no other client starts with.
    const start = `q${Math.random().toString(36).slice(2, 8).padEnd(6, 'q')}`;
    const eight = await newClient(api, admin, { firstName: `${start}a` });
    const nine = await newClient(api, admin, { firstName: `${start}bé` });
    expect(await listed({ search: start })).toEqual([nine.id, eight.id]);
    expect(await listed({ search: start, sortOrder: 'asc' })).toEqual([eight.id, nine.id]);
    expect(await listed({ search: `${start}A` })).toEqual([eight.id]);
    expect(await listed({ search: `${start}b` })).toEqual([nine.id]);
    expect(await listed({ search: `${start}BÉ` })).toEqual([nine.id]);
    // Past eight letters the whole word decides, not only its first eight.
    expect(await listed({ search: `${start}bx` })).toEqual([]);
    expect(await listed({ search: `${start}aa` })).toEqual([]);

    expectStatus(
      await api.call('PUT', `/api/admin/client/${nine.id}`, {
        as: admin,
        body: { firstName: 'Neunte' },
      }),
      200,
    );
    expect(await listed({ search: start })).toEqual([eight.id]);
    expectStatus(
      await api.call('POST', `/api/admin/client/${eight.id}/close-sessions`, { as: admin }),
      200,
    );
    expect(await listed({ search: start })).toEqual([]);
    expect(await listed({ search: start, showClosedSessions: true })).toEqual([eight.id]);
    expectStatus(await api.call('DELETE', `/api/admin/client/${eight.id}`, { as: admin }), 204);
    expect(await listed({ search: start, showClosedSessions: true })).toEqual([]);
    const left = await api.database.db
      .select()
      .from(clientSearchPrefixes)
      .where(eq(clientSearchPrefixes.clientId, eight.id));
    expect(left).toEqual([]);
  });

  it('matches phone numbers in any spelling, in telephone and additional numbers', async () => {
    for (const phoneNumber of [
      '+49 151 2345678',
      '0151-2345678',
      '01512345678',
      '0049 (151) 234 56 78',
    ]) {
      expect(await listed({ phoneNumber }), phoneNumber).toEqual([c1.id]);
      // …also without a search term.
      const all = await api.call('GET', '/api/admin/client', { as: admin, query: { phoneNumber } });
      expect(ids(all.body.clients), phoneNumber).toEqual([c1.id]);
    }
    expect(await listed({ phoneNumber: '+49 170 1112233' })).toEqual([c2.id]);
    expect(await listed({ phoneNumber: '030/9876543' })).toEqual([c2.id]);
    expect(await listed({ phoneNumber: '0171 0000000' })).toEqual([]);
  });

  it('filters by research participation, client type, campaign, insurer and coach', async () => {
    await same({ participatingInResearch: true }, [c1]);
    await same({ participatingInResearch: false }, [c2, c3, c5]);
    await same({ selfOrRelative: 'relative' }, [c2]);
    await same({ selfOrRelative: 'self' }, [c1, c3, c5]);
    await same({ campaign: `SPRING-${tag}` }, [c1, c5]);
    await same({ insurer: `AOK-${tag}` }, [c1, c3]);
    await same({ coach: coachA.id }, [c1, c3]);
    await same({ coach: coachB.id }, [c2]);
    await same({ campaign: `SPRING-${tag}`, participatingInResearch: false }, [c5]);
  });

  it('hides clients with closed sessions unless showClosedSessions=true', async () => {
    await same({}, [c1, c2, c3, c5]);
    await same({ showClosedSessions: false }, [c1, c2, c3, c5]);
    await same({ showClosedSessions: true }, [c1, c2, c3, c4, c5]);
  });

  it('filters by live appointments of each type', async () => {
    await same({ initialAppointment: true }, [c1]);
    await same({ initialAppointment: false }, [c2, c3, c5]);
    await same({ firstAppointment: true }, [c2, c5]);
    await same({ firstAppointment: false }, [c1, c3]);
    await same({ followupAppointment: true }, [c3, c5]);
    await same({ followupAppointment: false }, [c1, c2]);
    await same({ minFollowupAppointments: 1 }, [c3, c5]);
    await same({ minFollowupAppointments: 2 }, [c3]);
    await same({ minFollowupAppointments: 3 }, []);
    await same({ minFollowupAppointments: 0 }, [c1, c2, c3, c5]);
  });

  it('filters by rejection and creation time', async () => {
    await same({ hasRejected: true }, [c3]);
    await same({ hasRejected: false }, [c1, c2, c5]);
    // Between the creation of c2 and c3.
    const between = new Date(
      (Date.parse(c2.createdAt) + Date.parse(c3.createdAt)) / 2,
    ).toISOString();
    await same({ createdAfter: between }, [c3, c5]);
    await same({ createdAfter: between, showClosedSessions: true }, [c3, c4, c5]);
    await same({ createdAfter: new Date(Date.now() + 60_000).toISOString() }, []);
  });

  // The API shows instants to the millisecond; PostgreSQL stores microseconds (PGlite's clock
  // happens to tick in milliseconds, so this passes there). Filtering "created after" the
  // createdAt the API showed for a client must not return that very client.
  it('does not count a client as created after its own createdAt', async () => {
    await same({ createdAfter: c2.createdAt }, [c3, c5]);
  });

  it('sorts by every sortBy in both directions', async () => {
    const all = { showClosedSessions: true };
    const byCreation = ids([c1, c2, c3, c4, c5]);
    expect(await listed(all)).toEqual([...byCreation].reverse());
    expect(await listed({ ...all, sortBy: 'createdAt', sortOrder: 'asc' })).toEqual(byCreation);
    expect(await listed({ ...all, sortBy: 'createdAt', sortOrder: 'desc' })).toEqual(
      [...byCreation].reverse(),
    );

    const byLastName = ids([c1, c2, c4, c5, c3]); // Alpha, Beta, Delta, Epsilon, Gamma
    expect(await listed({ ...all, sortBy: 'lastName', sortOrder: 'asc' })).toEqual(byLastName);
    expect(await listed({ ...all, sortBy: 'lastName', sortOrder: 'desc' })).toEqual(
      [...byLastName].reverse(),
    );
    expect(await listed({ ...all, sortBy: 'lastName' })).toEqual([...byLastName].reverse());

    const byFirstName = ids([c1, c2, c3, c4, c5]); // Anna, Bernd, Carla, Dora, Emil
    expect(await listed({ ...all, sortBy: 'firstName', sortOrder: 'asc' })).toEqual(byFirstName);
    expect(await listed({ ...all, sortBy: 'firstName', sortOrder: 'desc' })).toEqual(
      [...byFirstName].reverse(),
    );

    const byYear = ids([c4, c2, c1, c3, c5]); // 1965, 1975, 1980, 1990, 2001
    expect(await listed({ ...all, sortBy: 'yearOfBirth', sortOrder: 'asc' })).toEqual(byYear);
    expect(await listed({ ...all, sortBy: 'yearOfBirth', sortOrder: 'desc' })).toEqual(
      [...byYear].reverse(),
    );

    // c4 changed when its sessions were closed; touching c2 makes it the latest.
    expectStatus(
      await api.call('PUT', `/api/admin/client/${c2.id}`, { as: admin, body: { notes: 'neu' } }),
      200,
    );
    const byUpdate = ids([c1, c3, c5, c4, c2]);
    expect(await listed({ ...all, sortBy: 'updatedAt', sortOrder: 'asc' })).toEqual(byUpdate);
    expect(await listed({ ...all, sortBy: 'updatedAt', sortOrder: 'desc' })).toEqual(
      [...byUpdate].reverse(),
    );
  });

  it('pages with itemCount counting all matches', async () => {
    const query = { search: tag, showClosedSessions: true, sortOrder: 'asc', limit: 2 };
    const pages: string[][] = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await api.call('GET', '/api/admin/client', {
        as: admin,
        query: { ...query, page },
      });
      expectStatus(res, 200);
      expect(res.body.itemCount).toBe(5);
      pages.push(ids(res.body.clients));
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1, 0]);
    expect(pages.flat()).toEqual(ids([c1, c2, c3, c4, c5]));

    const filtered = await api.call('GET', '/api/admin/client', {
      as: admin,
      query: { search: tag, coach: coachA.id, limit: 1 },
    });
    expect(filtered.body.itemCount).toBe(2);
    expect(filtered.body.clients).toHaveLength(1);
  });

  it('pages and counts the same way without a search term', async () => {
    // Without a text search the page and its count take another path (an index walk in the
    // list's order); a coach's clients are only this test's.
    const pages: string[][] = [];
    for (const page of [1, 2, 3]) {
      const res = await api.call('GET', '/api/admin/client', {
        as: admin,
        query: { coach: coachA.id, sortOrder: 'asc', limit: 1, page },
      });
      expectStatus(res, 200);
      expect(res.body.itemCount).toBe(2);
      expect(res.body.itemCountCapped).toBe(false);
      pages.push(ids(res.body.clients));
    }
    expect(pages).toEqual([[c1.id], [c3.id], []]);
    const first = await api.call('GET', '/api/admin/client', {
      as: admin,
      query: { campaign: `SPRING-${tag}`, limit: 1 },
    });
    expect(first.body).toMatchObject({ itemCount: 2, itemCountCapped: false });
    expect(first.body.clients[0]).toMatchObject({
      id: c5.id,
      firstName: 'Emil',
      coachedBy: null,
      contactPerson: null,
    });
  });

  it('offers a quick search by name or e-mail', async () => {
    const quick = (query: Record<string, string | number>, as: Caller = admin) =>
      api.call('GET', '/api/admin/client/search', { as, query });
    const res = await quick({ query: `alpha-${tag}` });
    expectStatus(res, 200);
    expect(res.body.clients).toEqual([
      {
        id: c1.id,
        firstName: 'Anna',
        lastName: `Alpha-${tag}`,
        email: c1.email,
        yearOfBirth: 1980,
      },
    ]);
    expect(ids((await quick({ query: `ANNA.${tag}` })).body.clients)).toEqual([c1.id]);
    expect(ids((await quick({ query: `Anna Alpha-${tag}` })).body.clients)).toEqual([c1.id]);
    // Sorted by last name; includes closed clients.
    expect(ids((await quick({ query: tag })).body.clients)).toEqual(ids([c1, c2, c4, c5, c3]));
    expect((await quick({ query: tag, limit: 2 })).body.clients).toHaveLength(2);
    expect((await quick({ query: `_${tag}` })).body.clients).toEqual([]);
  });

  it('shows a coach only the clients they coach', async () => {
    const coachUser = await api.signIn('COACH', { coachId: coachA.id });
    expect((await listed({ showClosedSessions: true }, coachUser)).sort()).toEqual(
      ids([c1, c3]).sort(),
    );
    const unscoped = await api.call('GET', '/api/admin/client', {
      as: coachUser,
      query: { limit: 100 },
    });
    expect(unscoped.body.clients.every((c: any) => c.coachedBy?.id === coachA.id)).toBe(true);
    // Asking for another coach's clients yields nothing rather than leaking them.
    expect(await listed({ coach: coachB.id }, coachUser)).toEqual([]);
    // A search of several words reads each word apart, each within the coach's clients.
    expect(await listed({ search: `anna ${tag}` }, coachUser)).toEqual([c1.id]);
    expect(await listed({ search: `bernd ${tag}` }, coachUser)).toEqual([]);
    expect(await listed({ search: `bernd ${tag}` })).toEqual([c2.id]);

    expectStatus(await getClient(c1.id, coachUser), 200);
    expectProblem(await getClient(c2.id, coachUser), 404, 'not_found');
    expectProblem(await getClient(c4.id, coachUser), 404, 'not_found');
    expectProblem(
      await api.call('PUT', `/api/admin/client/${c2.id}`, { as: coachUser, body: { notes: 'x' } }),
      404,
    );
    expectProblem(
      await api.call('POST', `/api/admin/client/${c5.id}/close-sessions`, { as: coachUser }),
      404,
    );
    const quick = await api.call('GET', '/api/admin/client/search', {
      as: coachUser,
      query: { query: tag },
    });
    expect(ids(quick.body.clients)).toEqual(ids([c1, c3]));

    const own = await api.call('PUT', `/api/admin/client/${c3.id}`, {
      as: coachUser,
      body: { mentalStressIndicator: 4 },
    });
    expectStatus(own, 200);
    expect(own.body.mentalStressIndicator).toBe(4);
    expect((await getClient(c2.id)).body.notes).not.toBe('x');
    expect((await getClient(c5.id)).body.sessionsClosedOn).toBeNull();
  });
});
