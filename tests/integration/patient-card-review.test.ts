import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../server/db/schema/index';
import type { Api } from '../support/api';
import { startClinical, type ClinicalApp } from './clinical-support';
import { expectProblem, expectStatus, type Caller } from './fixtures';

// Patient cards through review: POST /patient-cards/batch-process completes signed cards all or
// nothing, and GET /patient-cards/overall-status counts them, for one coach whose work is known.
let api: Api;
let admin: Caller, om: Caller, coachA: Caller, coachB: Caller;
let coachBId: string;
let held: ClinicalApp['held'];

const CARD = {
  reason: 'Stress im Beruf',
  consents: { processing: new Date().toISOString(), research: false, recordings: false },
};
const UNKNOWN = '0b6f4c1e-2d3a-4b5c-8d7e-9f0a1b2c3d4e';

beforeAll(async () => {
  ({ api, admin, om, coachA, coachB, coachBId, held } = await startClinical({ firstDay: -60 }));
});
afterAll(() => api.close());

/** A held appointment of a new client of coach B with a patient card: a draft, or signed. */
async function card(content: Record<string, unknown>, sign: boolean) {
  const appointment = await held(coachBId);
  const created = await api.call('POST', `/api/appointment/${appointment.id}/patient-card`, {
    as: coachB,
    body: { content },
  });
  expectStatus(created, 201);
  const id = created.body.id as string;
  if (sign) {
    expectStatus(
      await api.call('PUT', `/api/patient-card/${id}`, { as: coachB, body: { status: 'sent' } }),
      200,
    );
  }
  return { id, clientId: appointment.clientId as string };
}

const overall = async (as: Caller, query = `?coachId=${coachBId}`) => {
  const res = await api.call('GET', `/api/patient-cards/overall-status${query}`, { as });
  expectStatus(res, 200);
  return res.body;
};
const read = async (doc: { clientId: string }) =>
  (await api.call('GET', `/api/client/${doc.clientId}/patient-card`, { as: admin })).body;
const statusOf = async (doc: { clientId: string }) => (await read(doc)).status as string;

describe('patient cards through review', () => {
  it('counts cards per status, completes a batch all or nothing naming every offender', async () => {
    // Coach B's known work (appointments weeks ago, so open work is overdue): one client
    // without a card, one with a blocked draft, two with signed cards.
    const missing = await held(coachBId);
    const draft = await card({}, false);
    const one = await card(CARD, true);
    const two = await card(CARD, true);

    const before = await overall(admin);
    expect(before).toEqual({
      status: 'blocker',
      counts: { missing: 1, new: 1, sent: 2, completed: 0, canceled: 0, blocked: 1 },
      overdue: 2,
    });
    // The same numbers for the coach themself, for an onboarding manager, and in the tasks' status.
    expect(await overall(coachB, '')).toEqual(before);
    expect(await overall(om)).toEqual(before);
    const tasks = await api.call('GET', `/api/tasks/overall-status?coachId=${coachBId}`, {
      as: admin,
    });
    expect(tasks.body.patientCards).toEqual(before.counts);
    // Another coach sees none of it.
    expect((await overall(coachA)).counts).toEqual({
      missing: 0,
      new: 0,
      sent: 0,
      completed: 0,
      canceled: 0,
      blocked: 0,
    });

    // A draft and an unknown id among signed cards: nothing changes, both are named.
    const refused = await api.call('POST', '/api/patient-cards/batch-process', {
      as: admin,
      body: { ids: [one.id, draft.id, two.id, UNKNOWN] },
    });
    expectProblem(refused, 409, 'batch_refused');
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        field: 'ids.1',
        id: draft.id,
        status: 'new',
        code: 'invalid_transition',
      }),
      expect.objectContaining({ field: 'ids.3', id: UNKNOWN, code: 'not_found' }),
    ]);
    expect([await statusOf(one), await statusOf(two), await statusOf(draft)]).toEqual([
      'sent',
      'sent',
      'new',
    ]);
    expect(await overall(admin)).toEqual(before);

    // Only a role that may read the cards completes them.
    for (const as of [coachB, om]) {
      expectProblem(
        await api.call('POST', '/api/patient-cards/batch-process', { as, body: { ids: [one.id] } }),
        403,
      );
    }

    const done = await api.call('POST', '/api/patient-cards/batch-process', {
      as: admin,
      body: { ids: [one.id, two.id] },
    });
    expectStatus(done, 200);
    expect(done.body).toEqual({ processed: 2 });
    const completed = await read(one);
    expect(completed).toMatchObject({
      status: 'completed',
      completedById: expect.any(String),
      signature: { verified: true },
    });
    expect(completed.completedAt).toEqual(expect.any(String));
    expect((await overall(admin)).counts).toEqual({
      missing: 1,
      new: 1,
      sent: 0,
      completed: 2,
      canceled: 0,
      blocked: 1,
    });

    // A completed card is not completed twice: the repeat is refused and names it.
    const again = await api.call('POST', '/api/patient-cards/batch-process', {
      as: admin,
      body: { ids: [two.id] },
    });
    expectProblem(again, 409, 'batch_refused');
    expect(again.body.errors).toEqual([
      expect.objectContaining({
        field: 'ids.0',
        id: two.id,
        status: 'completed',
        code: 'invalid_transition',
      }),
    ]);

    // The open work done: the draft filled in and signed, the missing card written and signed.
    expectStatus(
      await api.call('PUT', `/api/patient-card/${draft.id}`, {
        as: coachB,
        body: { content: CARD, status: 'sent' },
      }),
      200,
    );
    const written = await api.call('POST', `/api/appointment/${missing.id}/patient-card`, {
      as: coachB,
      body: { content: CARD },
    });
    expectStatus(written, 201);
    expectStatus(
      await api.call('PUT', `/api/patient-card/${written.body.id}`, {
        as: coachB,
        body: { status: 'sent' },
      }),
      200,
    );
    expect(await overall(admin)).toEqual({
      status: 'available',
      counts: { missing: 0, new: 0, sent: 2, completed: 2, canceled: 0, blocked: 0 },
      overdue: 0,
    });
  });
});

describe('a client reading their own signed card', () => {
  it('learns their client record at sign-in and reads the signed card without review comments', async () => {
    const signed = await card(CARD, true);
    const comment = await api.call('POST', `/api/patient-card/${signed.id}/review-comments`, {
      as: admin,
      body: { text: 'Bitte Ziele ergänzen' },
    });
    expectStatus(comment, 201);
    const draft = await card({}, false);

    const client = await api.signIn('NONE');
    await api.database.db
      .update(clients)
      .set({ userId: client.userId })
      .where(eq(clients.id, signed.clientId));
    const login = await api.call('POST', '/api/login', { as: client });
    expectStatus(login, 200);
    expect(login.body.clientId).toBe(signed.clientId);
    // Staff get none.
    expect((await api.call('POST', '/api/login', { as: admin })).body).not.toHaveProperty(
      'clientId',
    );

    const own = await api.call('GET', `/api/client/${signed.clientId}/patient-card`, {
      as: client,
    });
    expectStatus(own, 200);
    expect(own.body).toMatchObject({
      id: signed.id,
      status: 'sent',
      content: { reason: CARD.reason },
      signature: { signedAt: expect.any(String), verified: true },
      reviewComments: [],
    });
    expect(own.body.signature.signedByName).toEqual(expect.any(String));
    // Another client's card, even a signed one, is not theirs.
    expectProblem(
      await api.call('GET', `/api/client/${draft.clientId}/patient-card`, { as: client }),
      404,
    );
  });
});
