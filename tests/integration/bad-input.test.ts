import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../support/api';
import { contractOperations } from '../support/contract-validator';
import {
  at,
  expectProblem,
  expectStatus,
  namesField,
  newAppointment,
  newClient,
  newCoach,
  fieldsOf,
  type Caller,
} from './fixtures';

// Per area: bad requests are refused with 400 problem+json naming the field (or 404 for
// unknown ids), and none of them writes anything.

const UNKNOWN = '6f1c2d3e-4b5a-4c6d-8e7f-001122334455';
const long = (n: number) => 'x'.repeat(n);

interface Case {
  method: string;
  /** `:coach`, `:client`, `:appointment`, `:user` are replaced with existing ids. */
  url: string;
  body?: unknown;
  rawBody?: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** The field errors[] must name; omitted for 404 and invalid JSON. */
  field?: string;
  expect?: 'invalid_json' | 'not_found' | 'validation_failed';
}

const malformed = (method: string, url: string): Case => ({
  method,
  url,
  rawBody: '{"firstName": "Anna", ',
  expect: 'invalid_json',
});
const notFound = (method: string, url: string, body?: unknown): Case => ({
  method,
  url,
  ...(body === undefined ? {} : { body }),
  expect: 'not_found',
});
const badQuery = (url: string, query: Case['query'], field: string): Case => ({
  method: 'GET',
  url,
  query,
  field,
});
const badBody = (method: string, url: string, body: unknown, field?: string): Case => ({
  method,
  url,
  body,
  ...(field ? { field } : {}),
});
const paging = (url: string, size = 'limit'): Case[] => [
  badQuery(url, { page: 0 }, 'page'),
  badQuery(url, { page: 100001 }, 'page'),
  badQuery(url, { page: 1.5 }, 'page'),
  badQuery(url, { [size]: 0 }, size),
  badQuery(url, { [size]: 1000 }, size),
  badQuery(url, { [size]: 'abc' }, size),
];

const coach = { firstName: 'Carla', lastName: 'Coach', email: 'carla.neu@coach.example' };
const client = { firstName: 'Klara', lastName: 'Klient' };
const appointment = () => ({
  clientId: ':client',
  coachId: ':coach',
  startDate: at(20, 9),
  endDate: at(20, 10),
  appointmentType: 'followup',
});

const AREAS: Array<[string, Case[]]> = [
  [
    'users',
    [
      malformed('POST', '/api/user'),
      badBody('POST', '/api/user', {}, 'email'),
      badBody('POST', '/api/user', { email: 'kein-mail', role: 'ADMIN' }, 'email'),
      badBody('POST', '/api/user', { email: `${long(250)}@x.de`, role: 'ADMIN' }, 'email'),
      badBody('POST', '/api/user', { email: 12345, role: 'ADMIN' }, 'email'),
      badBody('POST', '/api/user', { email: 'neu@example.test', role: 'KING' }, 'role'),
      badBody('POST', '/api/user', { email: 'neu@example.test', role: 'admin' }, 'role'),
      badBody('POST', '/api/user', { email: 'neu@example.test' }, 'role'),
      badBody(
        'POST',
        '/api/user',
        { email: 'neu@example.test', role: 'COACH', coachId: 'abc' },
        'coachId',
      ),
      badBody(
        'POST',
        '/api/user',
        { email: 'neu@example.test', role: 'NONE', nickname: 'x' },
        'nickname',
      ),
      malformed('POST', '/api/user/:user'),
      badBody('POST', '/api/user/:user', {}),
      badBody('POST', '/api/user/:user', { active: 'false' }, 'active'),
      badBody('POST', '/api/user/:user', { role: 'OWNER' }, 'role'),
      badBody('POST', '/api/user/:user', { email: 'anders@example.test' }, 'email'),
      notFound('POST', `/api/user/${UNKNOWN}`, { active: true }),
      notFound('GET', `/api/user/${UNKNOWN}`),
      badQuery('/api/user/not-a-uuid', {}, 'id'),
      ...paging('/api/user'),
      badQuery('/api/user', { sortBy: 'email' }, 'sortBy'),
      malformed('POST', '/api/user/activate'),
      badBody('POST', '/api/user/activate', {}, 'activationCode'),
      badBody('POST', '/api/user/activate', { activationCode: 'abc' }, 'activationCode'),
      badBody('POST', '/api/user/activate', { activationCode: long(65) }, 'activationCode'),
    ],
  ],
  [
    'coaches',
    [
      malformed('POST', '/api/coach'),
      badBody('POST', '/api/coach', { ...coach, firstName: long(101) }, 'firstName'),
      badBody('POST', '/api/coach', { ...coach, firstName: '' }, 'firstName'),
      badBody('POST', '/api/coach', { ...coach, firstName: 12345 }, 'firstName'),
      badBody('POST', '/api/coach', { firstName: 'A', email: 'a@coach.example' }, 'lastName'),
      badBody('POST', '/api/coach', { ...coach, email: 'carla(at)coach' }, 'email'),
      badBody('POST', '/api/coach', { ...coach, telephone: 'ruf mich an' }, 'telephone'),
      badBody('POST', '/api/coach', { ...coach, telephone: `0${'1'.repeat(40)}` }, 'telephone'),
      badBody('POST', '/api/coach', { ...coach, title: long(51) }, 'title'),
      badBody(
        'POST',
        '/api/coach',
        { ...coach, takesInitialAppointments: 'ja' },
        'takesInitialAppointments',
      ),
      badBody('POST', '/api/coach', { ...coach, active: false }, 'active'),
      malformed('PUT', '/api/coach/:coach'),
      badBody('PUT', '/api/coach/:coach', {}),
      badBody('PUT', '/api/coach/:coach', { email: 'nope' }, 'email'),
      badBody('PUT', '/api/coach/:coach', { lastName: null }, 'lastName'),
      badBody('PUT', '/api/coach/:coach', { id: UNKNOWN }, 'id'),
      notFound('PUT', `/api/coach/${UNKNOWN}`, { title: 'Dr.' }),
      notFound('GET', `/api/coach/${UNKNOWN}`),
      notFound('DELETE', `/api/coach/${UNKNOWN}`),
      badQuery('/api/coach/not-a-uuid', {}, 'coachId'),
      ...paging('/api/coach'),
      badQuery('/api/coach', { search: 'Carla' }, 'search'),
      badQuery('/api/coach/search', {}, 'query'),
      badQuery('/api/coach/search', { query: '' }, 'query'),
      badQuery('/api/coach/search', { query: long(101) }, 'query'),
      badQuery('/api/coach/search', { query: 'a', limit: 51 }, 'limit'),
      badQuery('/api/coach/search', { query: 'a', limit: 0 }, 'limit'),
      badQuery('/api/coach/search', { query: 'a', active: true }, 'active'),
    ],
  ],
  [
    'clients',
    [
      malformed('POST', '/api/admin/client'),
      badBody('POST', '/api/admin/client', { ...client, firstName: long(101) }, 'firstName'),
      badBody('POST', '/api/admin/client', { firstName: 'Klara' }, 'lastName'),
      badBody('POST', '/api/admin/client', { ...client, firstName: null }, 'firstName'),
      badBody('POST', '/api/admin/client', { ...client, email: 'klara@' }, 'email'),
      badBody('POST', '/api/admin/client', { ...client, yearOfBirth: 1899 }, 'yearOfBirth'),
      badBody('POST', '/api/admin/client', { ...client, yearOfBirth: '1980' }, 'yearOfBirth'),
      badBody('POST', '/api/admin/client', { ...client, country: 'de' }, 'country'),
      badBody('POST', '/api/admin/client', { ...client, country: 'DEU' }, 'country'),
      badBody('POST', '/api/admin/client', { ...client, postalCode: long(17) }, 'postalCode'),
      badBody('POST', '/api/admin/client', { ...client, telephone: '0151-CALL-ME' }, 'telephone'),
      badBody(
        'POST',
        '/api/admin/client',
        { ...client, additionalTelephoneNumbers: '0'.repeat(201) },
        'additionalTelephoneNumbers',
      ),
      badBody(
        'POST',
        '/api/admin/client',
        { ...client, mentalStressIndicator: 11 },
        'mentalStressIndicator',
      ),
      badBody(
        'POST',
        '/api/admin/client',
        { ...client, mentalStressIndicator: 2.5 },
        'mentalStressIndicator',
      ),
      badBody('POST', '/api/admin/client', { ...client, clientType: 'friend' }, 'clientType'),
      badBody(
        'POST',
        '/api/admin/client',
        { ...client, rejectionReasonType: 'bored' },
        'rejectionReasonType',
      ),
      badBody(
        'POST',
        '/api/admin/client',
        { ...client, initialDiagnosis: '15.03.2024' },
        'initialDiagnosis',
      ),
      badBody(
        'POST',
        '/api/admin/client',
        { ...client, clientType: 'relative', contactPerson: { firstName: 'Rita' } },
        'contactPerson.lastName',
      ),
      badBody(
        'POST',
        '/api/admin/client',
        { ...client, contactPerson: { firstName: 'Rita', lastName: 'R', email: 'rita' } },
        'contactPerson.email',
      ),
      badBody('POST', '/api/admin/client', { ...client, notes: long(5001) }, 'notes'),
      badBody('POST', '/api/admin/client', { ...client, diagnosis: long(5001) }, 'diagnosis'),
      badBody('POST', '/api/admin/client', { ...client, insurerCode: '' }, 'insurerCode'),
      badBody('POST', '/api/admin/client', { ...client, paidBySponsor: 'true' }, 'paidBySponsor'),
      badBody('POST', '/api/admin/client', { ...client, coachedById: 'coach-1' }, 'coachedById'),
      badBody('POST', '/api/admin/client', { ...client, userId: UNKNOWN }, 'userId'),
      badBody(
        'POST',
        '/api/admin/client',
        { ...client, sessionsClosedOn: at(0) },
        'sessionsClosedOn',
      ),
      malformed('PUT', '/api/admin/client/:client'),
      badBody('PUT', '/api/admin/client/:client', {}),
      badBody('PUT', '/api/admin/client/:client', { firstName: '' }, 'firstName'),
      badBody('PUT', '/api/admin/client/:client', { email: 'x' }, 'email'),
      badBody('PUT', '/api/admin/client/:client', { id: UNKNOWN }, 'id'),
      notFound('PUT', `/api/admin/client/${UNKNOWN}`, { notes: 'x' }),
      notFound('GET', `/api/admin/client/${UNKNOWN}`),
      notFound('DELETE', `/api/admin/client/${UNKNOWN}`),
      notFound('POST', `/api/admin/client/${UNKNOWN}/close-sessions`),
      notFound('POST', `/api/admin/client/${UNKNOWN}/open-sessions`),
      badQuery('/api/admin/client/not-a-uuid', {}, 'clientId'),
      ...paging('/api/admin/client'),
      badQuery('/api/admin/client', { sortBy: 'age' }, 'sortBy'),
      badQuery('/api/admin/client', { sortOrder: 'up' }, 'sortOrder'),
      badQuery('/api/admin/client', { minFollowupAppointments: -1 }, 'minFollowupAppointments'),
      badQuery('/api/admin/client', { minFollowupAppointments: 1001 }, 'minFollowupAppointments'),
      badQuery('/api/admin/client', { createdAfter: 'gestern' }, 'createdAfter'),
      badQuery('/api/admin/client', { coach: 'coach-1' }, 'coach'),
      badQuery('/api/admin/client', { search: long(101) }, 'search'),
      badQuery('/api/admin/client', { phoneNumber: '1'.repeat(41) }, 'phoneNumber'),
      badQuery('/api/admin/client', { showClosedSessions: 'vielleicht' }, 'showClosedSessions'),
      badQuery('/api/admin/client', { selfOrRelative: 'friend' }, 'selfOrRelative'),
      badQuery('/api/admin/client', { name: 'Klara' }, 'name'),
      badQuery('/api/admin/client/search', {}, 'query'),
      badQuery('/api/admin/client/search', { query: 'a', limit: 51 }, 'limit'),
      badQuery('/api/admin/client/search', { query: 'a', sortBy: 'lastName' }, 'sortBy'),
    ],
  ],
  [
    'appointments',
    [
      malformed('POST', '/api/appointment'),
      badBody('POST', '/api/appointment', {}, 'clientId'),
      badBody(
        'POST',
        '/api/appointment',
        { ...appointment(), startDate: 'morgen 10 Uhr' },
        'startDate',
      ),
      badBody(
        'POST',
        '/api/appointment',
        { ...appointment(), startDate: '2030-01-01' },
        'startDate',
      ),
      badBody(
        'POST',
        '/api/appointment',
        { ...appointment(), appointmentType: 'long' },
        'appointmentType',
      ),
      badBody('POST', '/api/appointment', { ...appointment(), meetingType: 'zoom' }, 'meetingType'),
      badBody(
        'POST',
        '/api/appointment',
        { ...appointment(), externalMeetingUrl: 'kein link' },
        'externalMeetingUrl',
      ),
      badBody(
        'POST',
        '/api/appointment',
        { ...appointment(), isProvisional: 'ja' },
        'isProvisional',
      ),
      badBody('POST', '/api/appointment', { ...appointment(), clientId: 'abc' }, 'clientId'),
      badBody(
        'POST',
        '/api/appointment',
        { ...appointment(), appointmentNumber: 7 },
        'appointmentNumber',
      ),
      badBody('POST', '/api/appointment', { ...appointment(), cancelledAt: at(0) }, 'cancelledAt'),
      {
        method: 'POST',
        url: '/api/appointment',
        body: appointment(),
        headers: { 'idempotency-key': 'abc' },
        field: 'idempotency-key',
      },
      malformed('PUT', '/api/appointment/:appointment'),
      badBody('PUT', '/api/appointment/:appointment', {}),
      badBody('PUT', '/api/appointment/:appointment', { noShow: 'nein' }, 'noShow'),
      badBody('PUT', '/api/appointment/:appointment', { startDate: 'bald' }, 'startDate'),
      badBody('PUT', '/api/appointment/:appointment', { clientId: UNKNOWN }, 'clientId'),
      badBody(
        'PUT',
        '/api/appointment/:appointment',
        { appointmentNumber: 9 },
        'appointmentNumber',
      ),
      notFound('PUT', `/api/appointment/${UNKNOWN}`, { noShow: true }),
      notFound('GET', `/api/appointment/${UNKNOWN}`),
      notFound('DELETE', `/api/appointment/${UNKNOWN}`),
      badQuery('/api/appointment/not-a-uuid', {}, 'id'),
      ...paging('/api/appointments'),
      badQuery('/api/appointments', { fromDate: 'morgen' }, 'fromDate'),
      badQuery('/api/appointments', { toDate: '2030-01-01' }, 'toDate'),
      badQuery('/api/appointments', { appointmentType: 'long' }, 'appointmentType'),
      badQuery('/api/appointments', { sortDirection: 'up' }, 'sortDirection'),
      badQuery('/api/appointments', { cancelled: 'vielleicht' }, 'cancelled'),
      badQuery('/api/appointments', { coach: 'c1' }, 'coach'),
      badQuery('/api/appointments', { clientId: 'k1' }, 'clientId'),
      badQuery('/api/appointments', { coachId: UNKNOWN }, 'coachId'),
      badQuery('/api/appointments', { sortBy: 'startDate' }, 'sortBy'),
      badQuery('/api/appointments/upcoming', {}, 'forDate'),
      badQuery('/api/appointments/upcoming', { forDate: 'heute' }, 'forDate'),
      badQuery('/api/appointments/upcoming', { forDate: '2030-02-30' }, 'forDate'),
      badQuery('/api/appointments/upcoming', { forDate: '2030-01-01', coachId: 'c1' }, 'coachId'),
      badQuery('/api/appointments/upcoming', { forDate: '2030-01-01', limit: 2 }, 'limit'),
    ],
  ],
  [
    'events',
    [
      ...paging('/api/businessevents', 'pageSize'),
      badQuery('/api/businessevents', { limit: 5 }, 'limit'),
      badQuery('/api/businessevents', { userId: 'abc' }, 'userId'),
      badQuery('/api/businessevents', { appointmentId: 'abc' }, 'appointmentId'),
      badQuery('/api/businessevents', { clientId: 'abc' }, 'clientId'),
      badQuery('/api/businessevents', { coachId: 'abc' }, 'coachId'),
      ...paging('/api/events'),
      badQuery('/api/events', { pageSize: 5 }, 'pageSize'),
      badQuery('/api/events', { showAllEvents: 'vielleicht' }, 'showAllEvents'),
      badQuery('/api/events', { client: 'abc' }, 'client'),
      badQuery('/api/events', { coach: 'abc' }, 'coach'),
      badQuery('/api/events', { appointment: 'abc' }, 'appointment'),
      badQuery('/api/events', { clientId: UNKNOWN }, 'clientId'),
    ],
  ],
  [
    'catalog',
    [
      badQuery('/api/admin/insurers', { active: true }, 'active'),
      badQuery('/api/admin/campaigns', { page: 1 }, 'page'),
    ],
  ],
];

let api: Api;
let admin: Caller;
const targets: Record<string, string> = {};
let baseline: unknown;

/** Everything a bad request could have changed. */
async function snapshot() {
  const get = async (url: string, query: Record<string, string | number | boolean> = {}) => {
    const res = await api.call('GET', url, { as: admin, query });
    expectStatus(res, 200);
    return res.body;
  };
  return {
    users: (await get('/api/user', { limit: 100 })).users,
    coaches: (await get('/api/coach', { limit: 100 })).coaches,
    clients: (await get('/api/admin/client', { limit: 100, showClosedSessions: true })).clients,
    appointments: (await get('/api/appointments', { limit: 100 })).appointments,
    events: (await get('/api/businessevents', { pageSize: 1 })).itemCount,
  };
}

beforeAll(async () => {
  api = await createApi();
  admin = await api.signIn('ADMIN');
  const c = await newCoach(api, admin);
  const k = await newClient(api, admin);
  const a = await newAppointment(api, admin, {
    clientId: k.id,
    coachId: c.id,
    startDate: at(10, 9),
  });
  const u = await api.call('POST', '/api/user', {
    as: admin,
    body: { email: 'ziel@example.test', role: 'NONE' },
  });
  expectStatus(u, 201);
  Object.assign(targets, {
    ':coach': c.id,
    ':client': k.id,
    ':appointment': a.id,
    ':user': u.body.user.id,
  });
  baseline = await snapshot();
});
afterAll(() => api.close());

const fill = (text: string) =>
  text.replace(/:(coach|client|appointment|user)\b/g, (m) => targets[m] ?? m);
const fillBody = (body: unknown) =>
  body === undefined ? undefined : JSON.parse(fill(JSON.stringify(body)));
const label = (c: Case) => {
  const what =
    c.expect === 'invalid_json'
      ? 'malformed JSON'
      : c.expect === 'not_found'
        ? 'unknown id'
        : c.query && Object.keys(c.query).length
          ? JSON.stringify(c.query)
          : c.headers
            ? JSON.stringify(c.headers)
            : JSON.stringify(c.body ?? '').slice(0, 60);
  return `${c.method} ${c.url} ${what}${c.field ? ` → ${c.field}` : ''}`;
};

describe.each(AREAS)('bad input: %s', (_area, cases) => {
  it.each(cases.map((c) => [label(c), c] as const))('%s', async (_name, c) => {
    const body = fillBody(c.body);
    const res = await api.call(c.method, fill(c.url), {
      as: admin,
      ...(body === undefined ? {} : { body }),
      ...(c.rawBody === undefined ? {} : { rawBody: c.rawBody }),
      ...(c.query ? { query: c.query } : {}),
      ...(c.headers ? { headers: c.headers } : {}),
    });
    if (c.expect === 'not_found') return expectProblem(res, 404, 'not_found');
    if (c.expect === 'invalid_json') return expectProblem(res, 400, 'invalid_json');
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.errors?.length, JSON.stringify(res.body)).toBeGreaterThan(0);
    if (c.field)
      expect(namesField(res, c.field), `errors name ${c.field}: ${fieldsOf(res)}`).toBe(true);
  });

  it('wrote nothing', async () => {
    expect(await snapshot()).toEqual(baseline);
  });
});

describe('bodies the server cannot read', () => {
  // Every answer must be one the contract declares: every operation that may carry a body
  // declares 413 and 415 (shared responses PayloadTooLarge, UnsupportedMediaType).
  it('answers a non-JSON content type with a problem the contract declares', async () => {
    const res = await api.call('POST', '/api/coach', {
      as: admin,
      rawBody: '<coach><firstName>Anna</firstName></coach>',
      headers: { 'content-type': 'application/xml' },
    });
    expectProblem(res, 415, 'unsupported_media_type');
  });

  it('answers an oversized body with a problem the contract declares', async () => {
    const res = await api.call('POST', '/api/admin/client', {
      as: admin,
      body: { firstName: 'Anna', lastName: 'Groß', notes: long(1_100_000) },
    });
    expectProblem(res, 413, 'payload_too_large');
  });

  it('answers 415 also where the operation takes no body', async () => {
    const res = await api.call('DELETE', fill('/api/coach/:coach'), {
      as: admin,
      rawBody: '<why>no</why>',
      headers: { 'content-type': 'application/xml' },
    });
    expectProblem(res, 415, 'unsupported_media_type');
  });

  it('declares 413 and 415 on every operation that may carry a body', async () => {
    const missing = (await contractOperations())
      .filter((op) => op.method !== 'get')
      .filter((op) => !op.definition.responses?.['413'] || !op.definition.responses?.['415'])
      .map((op) => op.operationId);
    expect(missing).toEqual([]);
  });

  it('wrote nothing', async () => {
    expect(await snapshot()).toEqual(baseline);
  });
});
