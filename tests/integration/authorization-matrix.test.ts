import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../server/db/schema/index';
import type { Operation } from '../../server/http/contract';
import { allHandlers } from '../../server/features/index';
import { createApi, type Api } from '../support/api';
import { newClient, newCoach, SOME_ID } from './fixtures';
import { CLINICAL_CLIENT_FIELDS, REVIEW_COMPLETERS } from '../../shared/clinical-access';
import { contractOperations } from '../support/contract-validator';

// Generated from the contract: for every operation and every kind of caller, the server
// answers 401/403 exactly where x-roles says so, and lets the call through elsewhere.
const operations = await contractOperations();

type PrincipalName =
  'anonymous' | 'inactive staff' | 'NONE' | 'COACH' | 'ONBOARDING_MANAGER' | 'ADMIN' | 'SUPERADMIN';
const PRINCIPALS: PrincipalName[] = [
  'anonymous',
  'inactive staff',
  'NONE',
  'COACH',
  'ONBOARDING_MANAGER',
  'ADMIN',
  'SUPERADMIN',
];

/** 401, 403, or 'through' (anything else) as the contract demands. */
function expected(op: Operation, who: PrincipalName): 401 | 403 | 'through' {
  const { access } = op;
  if (access.kind === 'public') return 'through';
  if (access.kind === 'webhookSecret') return 401;
  if (who === 'anonymous') return 401;
  if (who === 'inactive staff') return access.allowInactive ? 'through' : 403;
  if (who === 'SUPERADMIN' || access.roles.includes('ANY') || access.roles.includes(who)) {
    return 'through';
  }
  return 403;
}

const urlOf = (op: Operation) => `/api${op.path.replace(/\{[^}]+\}/g, SOME_ID)}`;

let api: Api;
const headers = new Map<PrincipalName, { authorization: string } | null>();

beforeAll(async () => {
  api = await createApi();
  headers.set('anonymous', null);
  headers.set('inactive staff', await api.signIn('ADMIN', { active: false }));
  const client = await api.signIn('NONE', { active: true });
  await api.database.db
    .insert(clients)
    .values({ firstName: 'Klara', lastName: 'Klientin', userId: client.userId });
  headers.set('NONE', client);
  for (const role of ['COACH', 'ONBOARDING_MANAGER', 'ADMIN', 'SUPERADMIN'] as const) {
    headers.set(role, await api.signIn(role));
  }
});
afterAll(() => api.close());

describe('authorisation matrix from x-roles', () => {
  it('covers every operation of the contract', () => {
    expect(operations.length).toBe(141);
  });

  it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s',
    async (_name, op) => {
      const answers: Record<string, number> = {};
      const wanted: Record<string, 401 | 403 | 'through'> = {};
      for (const who of PRINCIPALS) {
        const res = await api.call(op.method, urlOf(op), {
          as: headers.get(who) ?? null,
          ...(op.definition.requestBody ? { body: {} } : {}),
        });
        wanted[who] = expected(op, who);
        answers[who] = res.status;
      }
      const seen = Object.fromEntries(
        PRINCIPALS.map((who) => {
          const s = answers[who]!;
          return [who, s === 401 || s === 403 ? s : 'through'];
        }),
      );
      expect(seen).toEqual(wanted);
    },
  );

  it('lets the mail-list webhook through only with its shared secret', async () => {
    const res = await api.call('POST', '/api/mailchimp/webhook', {
      query: { secret: api.config.MAILCHIMP_WEBHOOK_SECRET! },
      body: {},
    });
    expect([401, 403]).not.toContain(res.status);
  });

  it('reports how many operations still answer 501', () => {
    const missing = operations.filter((op) => !(op.operationId in allHandlers));
    console.log(
      `Operations still answering 501: ${missing.length} of ${operations.length}\n` +
        missing.map((op) => `  ${op.operationId}`).join('\n'),
    );
    expect(missing.length).toBeLessThan(operations.length);
  });
});

// clinical content is for the roles that read it (shared/clinical-access.ts). The
// client record's clinical fields are left out of every answer to an onboarding manager, who
// may not write them either, and completing documents in review is for readers only.
describe('clinical content by role', () => {
  const CLINICAL = {
    diagnosis: 'Erschöpfungssyndrom',
    initialDiagnosis: '2024-03-01',
    mentalStressIndicator: 7,
    notes: 'Schläft schlecht',
  };
  const om = () => headers.get('ONBOARDING_MANAGER')!;
  const admin = () => headers.get('ADMIN')!;
  const clinicalOf = (record: Record<string, unknown>) =>
    CLINICAL_CLIENT_FIELDS.filter((field) => field in record);

  it('leaves the clinical fields out of the record, the list and every answer for onboarding managers', async () => {
    const coach = await newCoach(api, admin());
    const client = await newClient(api, admin(), { ...CLINICAL, coachedById: coach.id });
    expect(clinicalOf(client)).toEqual([...CLINICAL_CLIENT_FIELDS]);
    const asCoach = await api.signIn('COACH', { coachId: coach.id });
    for (const [who, as, shown] of [
      ['ONBOARDING_MANAGER', om(), []],
      ['COACH', asCoach, [...CLINICAL_CLIENT_FIELDS]],
      ['ADMIN', admin(), [...CLINICAL_CLIENT_FIELDS]],
      ['SUPERADMIN', headers.get('SUPERADMIN')!, [...CLINICAL_CLIENT_FIELDS]],
    ] as const) {
      const one = await api.call('GET', `/api/admin/client/${client.id}`, { as });
      expect(one.status, who).toBe(200);
      expect(clinicalOf(one.body), `${who} GET`).toEqual(shown);
      if (shown.length) expect(one.body.diagnosis).toBe(CLINICAL.diagnosis);
      const list = await api.call('GET', '/api/admin/client', {
        as,
        query: { search: client.lastName, limit: 5 },
      });
      expect(list.status, who).toBe(200);
      const row = list.body.clients.find((c: { id: string }) => c.id === client.id);
      expect(clinicalOf(row), `${who} list`).toEqual(shown);
    }
    // The write answers too.
    const changed = await api.call('PUT', `/api/admin/client/${client.id}`, {
      as: om(),
      body: { city: 'Kassel' },
    });
    expect(changed.status).toBe(200);
    expect(clinicalOf(changed.body)).toEqual([]);
    const closed = await api.call('POST', `/api/admin/client/${client.id}/close-sessions`, {
      as: om(),
    });
    expect(closed.status).toBe(200);
    expect(clinicalOf(closed.body)).toEqual([]);
    // What they changed kept what they could not see.
    const after = await api.call('GET', `/api/admin/client/${client.id}`, { as: admin() });
    expect(after.body).toMatchObject({ ...CLINICAL, city: 'Kassel' });
  });

  it('refuses onboarding managers writing a clinical field (403 naming it), and lets them create without', async () => {
    const client = await newClient(api, admin(), CLINICAL);
    for (const [field, value] of [
      ['diagnosis', null],
      ['notes', 'überschrieben'],
      ['mentalStressIndicator', 2],
    ] as const) {
      const res = await api.call('PUT', `/api/admin/client/${client.id}`, {
        as: om(),
        body: { [field]: value },
      });
      expect(res.status, field).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden_clinical', errors: [{ field }] });
    }
    const refused = await api.call('POST', '/api/admin/client', {
      as: om(),
      body: { firstName: 'Ole', lastName: 'Onboarding', diagnosis: 'Burn-out' },
    });
    expect(refused.status).toBe(403);
    // The staff form sends the fields empty on a new record: that is fine.
    const created = await api.call('POST', '/api/admin/client', {
      as: om(),
      body: { firstName: 'Ole', lastName: 'Onboarding', diagnosis: null, notes: null },
    });
    expect(created.status).toBe(201);
    expect(clinicalOf(created.body)).toEqual([]);
    const stored = await api.call('GET', `/api/admin/client/${client.id}`, { as: admin() });
    expect(stored.body).toMatchObject(CLINICAL);
  });

  it('lets only roles that read the documents complete them, and says so in the session', async () => {
    for (const path of ['/api/summaries/batch-process', '/api/patient-cards/batch-process']) {
      const op = operations.find((o) => `/api${o.path}` === path)!;
      expect(op.access.kind === 'bearer' && [...op.access.roles, 'SUPERADMIN'].sort()).toEqual(
        [...REVIEW_COMPLETERS].sort(),
      );
      const res = await api.call('POST', path, { as: om(), body: { ids: [SOME_ID] } });
      expect(res.status, path).toBe(403);
    }
    const permissions: Record<string, string[]> = {};
    for (const role of ['COACH', 'ONBOARDING_MANAGER', 'ADMIN', 'SUPERADMIN'] as const) {
      const res = await api.call('POST', '/api/login', { as: headers.get(role)! });
      expect(res.status, role).toBe(200);
      permissions[role] = res.body.permissions.filter((p: string) =>
        ['readClinical', 'completeReview'].includes(p),
      );
    }
    expect(permissions).toEqual({
      COACH: ['readClinical'],
      ONBOARDING_MANAGER: [],
      ADMIN: ['readClinical', 'completeReview'],
      SUPERADMIN: ['readClinical', 'completeReview'],
    });
  });
});
