import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../support/api';
import { itemMaker } from './billing-support';
import { SOAP, startClinical, type ClinicalApp } from './clinical-support';
import { expectStatus, newClient, newCoach, type Caller } from './fixtures';

// GET /review/summaries and /review/patient-cards: the signed documents the /review page
// completes in batches, oldest signature first, scoped like the incomplete lists.
let clock = new Date();
let api: Api;
let admin: Caller, om: Caller, coachA: Caller, coachB: Caller;
let coachAId: string, coachBId: string;
let held: ClinicalApp['held'];
let signedSummary: ClinicalApp['signedSummary'];

const CARD = {
  reason: 'Stress im Beruf',
  consents: { processing: new Date().toISOString(), research: false, recordings: false },
};

beforeAll(async () => {
  ({ api, admin, om, coachA, coachB, coachAId, coachBId, held, signedSummary } =
    await startClinical({ firstDay: -100, now: () => clock }));
});
afterAll(() => api.close());

describe('documents awaiting review', () => {
  it('lists signed summaries oldest signature first, scoped per coach, until completed', async () => {
    clock = new Date('2026-11-20T10:00:00Z');
    const first = await signedSummary(coachA, coachAId);
    clock = new Date('2026-11-21T10:00:00Z');
    const second = await signedSummary(coachB, coachBId);
    // A draft is not waiting for review.
    const draft = await held(coachAId);
    await api.call('POST', `/api/appointment/${draft.id}/summary`, {
      as: coachA,
      body: { content: SOAP },
    });
    clock = new Date('2026-11-23T12:00:00Z');

    const all = await api.call('GET', '/api/review/summaries?limit=100', { as: om });
    expectStatus(all, 200);
    expect(all.body.itemCount).toBe(2);
    expect(all.body.summaries.map((s: { summaryId: string }) => s.summaryId)).toEqual([
      first.summary.id,
      second.summary.id,
    ]);
    expect(all.body.summaries[0]).toMatchObject({
      appointmentId: first.appointment.id,
      coach: { id: coachAId },
      status: 'sent',
      signedAt: '2026-11-20T10:00:00.000Z',
      daysWaiting: 3,
    });
    expect(all.body.summaries[0]).not.toHaveProperty('content');

    const paged = await api.call('GET', '/api/review/summaries?limit=1&page=2', { as: admin });
    expect(paged.body).toMatchObject({
      itemCount: 2,
      summaries: [{ summaryId: second.summary.id }],
    });
    const filtered = await api.call('GET', `/api/review/summaries?coachId=${coachBId}`, {
      as: admin,
    });
    expect(filtered.body.summaries.map((s: { summaryId: string }) => s.summaryId)).toEqual([
      second.summary.id,
    ]);

    const own = await api.call('GET', '/api/review/summaries', { as: coachA });
    expect(own.body.summaries.map((s: { summaryId: string }) => s.summaryId)).toEqual([
      first.summary.id,
    ]);
    const other = await api.call('GET', `/api/review/summaries?coachId=${coachBId}`, {
      as: coachA,
    });
    expect(other.body).toEqual({ summaries: [], itemCount: 0 });

    expectStatus(
      await api.call('POST', '/api/summaries/batch-process', {
        as: admin,
        body: { ids: [first.summary.id] },
      }),
      200,
    );
    const after = await api.call('GET', '/api/review/summaries', { as: admin });
    expect(after.body.summaries.map((s: { summaryId: string }) => s.summaryId)).toEqual([
      second.summary.id,
    ]);
  });

  it('lists signed patient cards', async () => {
    clock = new Date();
    const a = await held(coachAId);
    const created = await api.call('POST', `/api/appointment/${a.id}/patient-card`, {
      as: coachA,
      body: {},
    });
    expectStatus(created, 201);
    const cardId = created.body.id as string;
    const before = await api.call('GET', '/api/review/patient-cards', { as: admin });
    expect(
      before.body.patientCards.map((c: { patientCardId: string }) => c.patientCardId),
    ).not.toContain(cardId);
    expectStatus(
      await api.call('PUT', `/api/patient-card/${cardId}`, {
        as: coachA,
        body: { content: CARD, status: 'sent' },
      }),
      200,
    );
    const res = await api.call('GET', '/api/review/patient-cards?limit=100', { as: admin });
    expect(res.body.patientCards).toContainEqual(
      expect.objectContaining({
        patientCardId: cardId,
        appointmentId: a.id,
        status: 'sent',
        daysWaiting: 0,
      }),
    );
    const coachB_ = await api.call('GET', '/api/review/patient-cards', { as: coachB });
    expect(coachB_.body.itemCount).toBe(0);
    expectStatus(await api.call('GET', '/api/review/patient-cards?limit=0', { as: admin }), 400);
  });
});

describe('pending work per coach', () => {
  it('counts exactly the signed documents and open billable items of each coach, oldest first', async () => {
    clock = new Date();
    // Two coaches of their own, so the numbers are known whatever else this file made.
    const x = (await newCoach(api, admin)).id;
    const y = (await newCoach(api, admin)).id;
    const asX = await api.signIn('COACH', { coachId: x });
    const asY = await api.signIn('COACH', { coachId: y });
    // X: billable items first (the catch-up makes items for every past appointment), two open
    // ones (pending, validation_failed) and one approved, which is not pending work.
    const item = itemMaker(api, admin);
    const client = await newClient(api, admin, { coachedById: x });
    await item(client.id, x, 'pending');
    await item(client.id, x, 'validation_failed');
    await item(client.id, x, 'approved');
    // Two signed summaries, one draft; one signed patient card, one draft.
    await signedSummary(asX, x);
    await signedSummary(asX, x);
    const draft = await held(x);
    await api.call('POST', `/api/appointment/${draft.id}/summary`, {
      as: asX,
      body: { content: SOAP },
    });
    for (const sign of [true, false]) {
      const a = await held(x);
      const card = await api.call('POST', `/api/appointment/${a.id}/patient-card`, {
        as: asX,
        body: {},
      });
      expectStatus(card, 201);
      if (sign) {
        expectStatus(
          await api.call('PUT', `/api/patient-card/${card.body.id}`, {
            as: asX,
            body: { content: CARD, status: 'sent' },
          }),
          200,
        );
      }
    }
    // Y: one signed summary, nothing else.
    const ySummary = await signedSummary(asY, y);

    const expectedX = {
      coach: expect.objectContaining({ id: x }),
      pendingSummaries: 2,
      pendingPatientCards: 1,
      pendingBillableItems: 2,
    };
    const expectedY = {
      coach: expect.objectContaining({ id: y }),
      pendingSummaries: 1,
      pendingPatientCards: 0,
      pendingBillableItems: 0,
      oldestPendingAt: new Date(ySummary.appointment.startDate).toISOString(),
    };
    const all = await api.call('GET', '/api/review/pending-by-coach?limit=100', { as: admin });
    expectStatus(all, 200);
    const rows = all.body.coaches.filter((c: { coach: { id: string } }) =>
      [x, y].includes(c.coach.id),
    );
    // X's oldest pending work is its first billable item's appointment, long before Y's.
    expect(rows).toEqual([expect.objectContaining(expectedX), expect.objectContaining(expectedY)]);
    expect(all.body.itemCount).toBe(all.body.coaches.length);

    const onlyX = await api.call('GET', `/api/review/pending-by-coach?coachId=${x}`, { as: om });
    expect(onlyX.body).toEqual({ coaches: [expect.objectContaining(expectedX)], itemCount: 1 });
    // A coach sees their own row with the same numbers, and only it.
    const own = await api.call('GET', '/api/review/pending-by-coach?limit=100', { as: asY });
    expect(own.body).toEqual({ coaches: [expectedY], itemCount: 1 });
  });
});
