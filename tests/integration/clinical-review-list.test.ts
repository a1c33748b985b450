import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../support/api';
import { SOAP, startClinical, type ClinicalApp } from './clinical-support';
import { expectStatus, type Caller } from './fixtures';

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
    await api.call('POST', `/api/appointment/${draft.id}/summary`, { as: coachA, body: { content: SOAP } });
    clock = new Date('2026-11-23T12:00:00Z');

    const all = await api.call('GET', '/api/review/summaries?limit=100', { as: om });
    expectStatus(all, 200);
    expect(all.body.itemCount).toBe(2);
    expect(all.body.summaries.map((s: { summaryId: string }) => s.summaryId)).toEqual([first.summary.id, second.summary.id]);
    expect(all.body.summaries[0]).toMatchObject({
      appointmentId: first.appointment.id,
      coach: { id: coachAId },
      status: 'sent',
      signedAt: '2026-11-20T10:00:00.000Z',
      daysWaiting: 3,
    });
    expect(all.body.summaries[0]).not.toHaveProperty('content');

    const paged = await api.call('GET', '/api/review/summaries?limit=1&page=2', { as: admin });
    expect(paged.body).toMatchObject({ itemCount: 2, summaries: [{ summaryId: second.summary.id }] });
    const filtered = await api.call('GET', `/api/review/summaries?coachId=${coachBId}`, { as: admin });
    expect(filtered.body.summaries.map((s: { summaryId: string }) => s.summaryId)).toEqual([second.summary.id]);

    const own = await api.call('GET', '/api/review/summaries', { as: coachA });
    expect(own.body.summaries.map((s: { summaryId: string }) => s.summaryId)).toEqual([first.summary.id]);
    const other = await api.call('GET', `/api/review/summaries?coachId=${coachBId}`, { as: coachA });
    expect(other.body).toEqual({ summaries: [], itemCount: 0 });

    expectStatus(
      await api.call('POST', '/api/summaries/batch-process', { as: admin, body: { ids: [first.summary.id] } }),
      200,
    );
    const after = await api.call('GET', '/api/review/summaries', { as: admin });
    expect(after.body.summaries.map((s: { summaryId: string }) => s.summaryId)).toEqual([second.summary.id]);
  });

  it('lists signed patient cards', async () => {
    clock = new Date();
    const a = await held(coachAId);
    const created = await api.call('POST', `/api/appointment/${a.id}/patient-card`, { as: coachA, body: {} });
    expectStatus(created, 201);
    const cardId = created.body.id as string;
    const before = await api.call('GET', '/api/review/patient-cards', { as: admin });
    expect(before.body.patientCards.map((c: { patientCardId: string }) => c.patientCardId)).not.toContain(cardId);
    expectStatus(
      await api.call('PUT', `/api/patient-card/${cardId}`, { as: coachA, body: { content: CARD, status: 'sent' } }),
      200,
    );
    const res = await api.call('GET', '/api/review/patient-cards?limit=100', { as: admin });
    expect(res.body.patientCards).toContainEqual(
      expect.objectContaining({ patientCardId: cardId, appointmentId: a.id, status: 'sent', daysWaiting: 0 }),
    );
    const coachB_ = await api.call('GET', '/api/review/patient-cards', { as: coachB });
    expect(coachB_.body.itemCount).toBe(0);
    expectStatus(await api.call('GET', '/api/review/patient-cards?limit=0', { as: admin }), 400);
  });
});
