import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicalAccessLog, events, webhookMessages, webhooks } from '../../server/db/schema/index';
import type { Api } from '../support/api';
import { SOAP, startClinical, summaryUrl, type ClinicalApp } from './clinical-support';
import {
  at,
  expectProblem,
  expectStatus,
  SOME_ID,
  newAppointment,
  newClient,
  plusMinutes,
  type Caller,
} from './fixtures';

// the open work tables follow every change that decides what is open (kept by
// triggers), a summary draft follows its appointment (cancelled, no-show, taken back), signing
// announces itself, and an admin exports one client's documents as one PDF.

let clock = new Date();
let api: Api;
let admin: Caller, coachA: Caller, coachB: Caller;
let coachAId: string, coachBId: string;
let nextDay: ClinicalApp['nextDay'];
let held: ClinicalApp['held'];

/** What the two incomplete lists show of an appointment / its client, as `as` sees them. */
async function listed(a: { id: string; clientId: string }, as: Caller = admin, query = '') {
  const summaries = await api.call('GET', `/api/summaries/incomplete?limit=100${query}`, { as });
  const cards = await api.call('GET', `/api/patient-cards/incomplete?limit=100${query}`, { as });
  expectStatus(summaries, 200);
  expectStatus(cards, 200);
  return {
    summary: summaries.body.summaries.find(
      (s: { appointmentId: string }) => s.appointmentId === a.id,
    ),
    card: cards.body.patientCards.find(
      (c: { client: { id: string } }) => c.client.id === a.clientId,
    ),
  };
}

const summaryStatus = async (appointmentId: string) =>
  (await api.call('GET', summaryUrl(appointmentId), { as: admin })).body;

beforeAll(async () => {
  ({ api, admin, coachA, coachB, coachAId, coachBId, nextDay, held } = await startClinical({
    firstDay: -300,
    now: () => clock,
  }));
});
afterAll(() => api.close());

describe('a summary draft follows its appointment', () => {
  it('is canceled by a no-show and a draft again when the no-show is taken back', async () => {
    clock = new Date();
    const a = await held();
    expectStatus(
      await api.call('POST', summaryUrl(a.id), { as: coachA, body: { content: SOAP } }),
      201,
    );
    expect((await listed(a)).summary).toMatchObject({ status: 'new' });

    const marked = await api.call('PUT', `/api/appointment/${a.id}`, {
      as: admin,
      body: { noShow: true },
    });
    expectStatus(marked, 200);
    expect(await summaryStatus(a.id)).toMatchObject({ status: 'canceled', version: 2 });
    expect(await listed(a)).toEqual({ summary: undefined, card: undefined });

    expectStatus(
      await api.call('PUT', `/api/appointment/${a.id}`, { as: admin, body: { noShow: false } }),
      200,
    );
    const back = await summaryStatus(a.id);
    expect(back).toMatchObject({ status: 'new', canceledAt: null, version: 3 });
    expect((await listed(a)).summary).toMatchObject({ status: 'new', summaryId: back.id });
  });

  it('stays canceled when it was canceled by hand, and a signed one stays signed', async () => {
    clock = new Date();
    const a = await held();
    await api.call('POST', summaryUrl(a.id), { as: coachA, body: { content: SOAP } });
    expectStatus(
      await api.call('PUT', summaryUrl(a.id), { as: coachA, body: { status: 'canceled' } }),
      200,
    );
    await api.call('PUT', `/api/appointment/${a.id}`, { as: admin, body: { noShow: true } });
    await api.call('PUT', `/api/appointment/${a.id}`, { as: admin, body: { noShow: false } });
    expect((await summaryStatus(a.id)).status).toBe('canceled');

    const b = await held();
    await api.call('POST', summaryUrl(b.id), { as: coachA, body: { content: SOAP } });
    expectStatus(
      await api.call('PUT', summaryUrl(b.id), { as: coachA, body: { status: 'sent' } }),
      200,
    );
    await api.call('PUT', `/api/appointment/${b.id}`, { as: admin, body: { noShow: true } });
    expect(await summaryStatus(b.id)).toMatchObject({
      status: 'sent',
      signature: { verified: true },
    });
  });

  it('is canceled when the appointment is cancelled while it runs', async () => {
    const a = await held(coachAId, 60);
    clock = new Date(plusMinutes(a.startDate, 35));
    await api.call('POST', summaryUrl(a.id), { as: coachA, body: { content: SOAP } });
    expect((await listed(a)).summary).toMatchObject({ status: 'new' });
    expectStatus(await api.call('DELETE', `/api/appointment/${a.id}`, { as: admin }), 200);
    expect(await summaryStatus(a.id)).toMatchObject({ status: 'canceled' });
    expect(await listed(a)).toEqual({ summary: undefined, card: undefined });
  });
});

describe('the open work follows what decides it', () => {
  it('a move into the future, a change of coach, a new coach of the client, completion', async () => {
    clock = new Date();
    const a = await held(coachAId);
    expect(await listed(a, coachA)).toMatchObject({ summary: { status: 'missing' }, card: {} });

    // Moved into the future: not due any more; due again 30 minutes after the new start.
    const future = at(400, 8);
    const moved = await api.call('PUT', `/api/appointment/${a.id}`, {
      as: admin,
      body: {
        startDate: future,
        endDate: plusMinutes(future, 60),
        availabilityOverrideReason: 'Test',
      },
    });
    expectStatus(moved, 200);
    expect(await listed(a)).toEqual({ summary: undefined, card: undefined });
    // The appointment's coach changes (a move, so while it lies ahead): coach B's work now.
    expectStatus(
      await api.call('PUT', `/api/appointment/${a.id}`, {
        as: admin,
        body: { coachId: coachBId, availabilityOverrideReason: 'Test' },
      }),
      200,
    );
    clock = new Date(plusMinutes(future, 30));
    expect(await listed(a)).toMatchObject({
      summary: { status: 'missing', appointmentStartDate: future, daysOverdue: 0 },
      card: { appointmentId: a.id },
    });
    expect((await listed(a, coachA)).summary).toBeUndefined();
    expect((await listed(a, coachB)).summary).toMatchObject({ coach: { id: coachBId } });
    // The card goes with the client's coach (still A), then with the new one.
    expect((await listed(a, coachA)).card).toMatchObject({ coach: { id: coachAId } });
    expectStatus(
      await api.call('PUT', `/api/admin/client/${a.clientId}`, {
        as: admin,
        body: { coachedById: coachBId },
      }),
      200,
    );
    expect((await listed(a, coachA)).card).toBeUndefined();
    expect((await listed(a, admin, `&coachId=${coachBId}`)).card).toMatchObject({
      coach: { id: coachBId },
    });

    // Signed, completed: off the list; the counts agree.
    await api.call('POST', summaryUrl(a.id), { as: coachB, body: { content: SOAP } });
    const signed = await api.call('PUT', summaryUrl(a.id), {
      as: coachB,
      body: { status: 'sent' },
    });
    expectStatus(signed, 200);
    expect((await listed(a)).summary).toBeUndefined();
    expectStatus(
      await api.call('POST', '/api/summaries/batch-process', {
        as: admin,
        body: { ids: [signed.body.id] },
      }),
      200,
    );
    expect((await listed(a)).summary).toBeUndefined();
    const status = await api.call('GET', `/api/tasks/overall-status?coachId=${coachBId}`, {
      as: admin,
    });
    expect(status.body.summaries).toMatchObject({ completed: 1, missing: 0 });
  });
});

describe('the incomplete count', () => {
  it('stays exact while time passes (remembered count plus what became due) and the work changes', async () => {
    clock = new Date();
    const count = async () =>
      (await api.call('GET', '/api/summaries/incomplete?limit=1', { as: admin })).body
        .itemCount as number;
    const before = await count();
    const client = await newClient(api, admin, { coachedById: coachAId });
    const later = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coachAId,
      startDate: at(500, 8),
    });
    expect(await count()).toBe(before);
    clock = new Date(plusMinutes(later.startDate, 30));
    expect(await count()).toBe(before + 1);
    clock = new Date(plusMinutes(later.startDate, 31));
    expect(await count()).toBe(before + 1);
    expectStatus(
      await api.call('PUT', `/api/appointment/${later.id}`, { as: admin, body: { noShow: true } }),
      200,
    );
    expect(await count()).toBe(before);
    clock = new Date();
    expect(await count()).toBe(before);
  });
});

describe('summary.signed', () => {
  it('is a business event and a thin webhook message, sent only when signing', async () => {
    clock = new Date();
    await api.database.db
      .insert(webhooks)
      .values({ type: 'summary.signed', url: 'https://hooks.example.com/in', active: true });
    const a = await held();
    await api.call('POST', summaryUrl(a.id), { as: coachA, body: { content: SOAP } });
    const signed = await api.call('PUT', summaryUrl(a.id), {
      as: coachA,
      body: { status: 'sent' },
    });
    expectStatus(signed, 200);
    const messages = await api.database.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.eventType, 'summary.signed'));
    expect(messages).toHaveLength(1);
    const payload = JSON.parse(messages[0]!.payload);
    expect(payload).toMatchObject({
      type: 'summary.signed',
      data: {
        summaryId: signed.body.id,
        appointmentId: a.id,
        clientId: a.clientId,
        coachId: coachAId,
        signedAt: signed.body.signature.signedAt,
      },
    });
    expect(messages[0]!.payload).not.toContain('subjective');
    const recorded = await api.database.db
      .select()
      .from(events)
      .where(eq(events.entityId, signed.body.id));
    expect(recorded.map((e) => e.type)).toEqual(['summary.signed']);
  });
});

describe('one-client export', () => {
  it('puts card, summaries, amendments, signatures and hashes into one PDF and logs every document', async () => {
    clock = new Date();
    const first = await held();
    const second = await newAppointment(api, admin, {
      clientId: first.clientId,
      coachId: coachAId,
      startDate: nextDay(),
    });
    const card = await api.call('POST', `/api/appointment/${first.id}/patient-card`, {
      as: coachA,
      body: {
        content: {
          reason: 'Prüfungsangst und Schlafstörungen',
          consents: { processing: new Date().toISOString(), research: false, recordings: false },
        },
      },
    });
    expectStatus(card, 201);
    expectStatus(
      await api.call('PUT', `/api/patient-card/${card.body.id}`, {
        as: coachA,
        body: { status: 'sent' },
      }),
      200,
    );
    await api.call('POST', summaryUrl(first.id), {
      as: coachA,
      body: { content: { ...SOAP, homework: 'Atemübung täglich' } },
    });
    const signed = await api.call('PUT', summaryUrl(first.id), {
      as: coachA,
      body: { status: 'sent' },
    });
    expectStatus(
      await api.call('POST', `${summaryUrl(first.id)}/amendments`, {
        as: coachA,
        body: { reason: 'Ergänzung', text: 'Übung auf zweimal täglich erhöht' },
      }),
      201,
    );
    await api.call('POST', summaryUrl(second.id), { as: coachA, body: { content: SOAP } });

    const url = `/api/admin/client/${first.clientId}/clinical-export`;
    const res = await api.app.inject({
      method: 'GET',
      url,
      headers: { authorization: admin.authorization },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
    const text = (await extractText(pdf, { mergePages: true })).text;
    for (const expected of [
      'Behandlungsdokumentation',
      'Patientenkarte',
      'Prüfungsangst und Schlafstörungen',
      'Terminzusammenfassung',
      'Atemübung täglich',
      'Nachtrag 1',
      'Übung auf zweimal täglich erhöht',
      signed.body.signature.contentHash,
      'unverändert',
      'Entwurf',
    ]) {
      expect(text).toContain(expected);
    }
    const logged = await api.database.db
      .select()
      .from(clinicalAccessLog)
      .where(eq(clinicalAccessLog.clientId, first.clientId));
    expect(logged.map((l) => l.documentType).sort()).toEqual([
      'patient_card',
      'summary',
      'summary',
    ]);

    expectProblem(await api.call('GET', url, { as: coachA }), 403);
    expectProblem(
      await api.call('GET', `/api/admin/client/${SOME_ID}/clinical-export`, { as: admin }),
      404,
    );
  });
});
