import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointmentSummaries, clinicalAccessLog } from '../../server/db/schema/index';
import type { Api } from '../support/api';
import {
  at,
  expectProblem,
  expectStatus,
  newAppointment,
  newClient,
  plusMinutes,
  type Caller,
} from './fixtures';
import { SOAP, startClinical, summaryUrl, type ClinicalApp } from './clinical-support';

// The clock the app reads; tests move it to the boundaries they check.
let clock = new Date();
let api: Api;
let admin: Caller, om: Caller, coachA: Caller, coachB: Caller;
let coachAId: string, coachBId: string;
let heldAppointment: ClinicalApp['held'];
let signedSummary: ClinicalApp['signedSummary'];

beforeAll(async () => {
  ({
    api,
    admin,
    om,
    coachA,
    coachB,
    coachAId,
    coachBId,
    held: heldAppointment,
    signedSummary,
  } = await startClinical({ firstDay: -200, now: () => clock }));
});
afterAll(() => api.close());

describe('summary lifecycle', () => {
  it('drafts with ETag/If-Match, signs with a verifying hash, then only takes amendments', async () => {
    clock = new Date();
    const a = await heldAppointment();
    const created = await api.call('POST', summaryUrl(a.id), {
      as: coachA,
      body: { content: { format: 'DAP', riskFlag: true } },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      status: 'new',
      version: 1,
      availability: 'blocker',
      signature: null,
    });
    expect(created.body.blockers.map((b: { code: string }) => b.code)).toEqual([
      'sections_incomplete',
      'risk_without_next_steps',
    ]);
    expect(created.headers.etag).toBe('"v1"');
    expectProblem(
      await api.call('POST', summaryUrl(a.id), { as: coachA, body: { content: SOAP } }),
      409,
      'summary_exists',
    );

    // DAP has no subjective section.
    const wrong = await api.call('PUT', summaryUrl(a.id), {
      as: coachA,
      body: { content: { ...SOAP, format: 'DAP' } },
    });
    expectProblem(wrong, 400, 'validation_failed');
    expect(wrong.body.errors[0].field).toBe('content.sections.subjective');

    const saved = await api.call('PUT', summaryUrl(a.id), {
      as: coachA,
      body: { content: SOAP },
      headers: { 'if-match': '"v1"' },
    });
    expectStatus(saved, 200);
    expect(saved.headers.etag).toBe('"v2"');
    expect(saved.body.availability).toBe('available');
    const stale = await api.call('PUT', summaryUrl(a.id), {
      as: coachA,
      body: { content: SOAP },
      headers: { 'if-match': '"v1"' },
    });
    expectProblem(stale, 412, 'precondition_failed');

    const signed = await api.call('PUT', summaryUrl(a.id), {
      as: coachA,
      body: { status: 'sent' },
      headers: { 'if-match': '"v2"' },
    });
    expectStatus(signed, 200);
    expect(signed.body.status).toBe('sent');
    expect(signed.body.signature).toMatchObject({ verified: true });
    expect(signed.body.signature.contentHash).toMatch(/^[0-9a-f]{64}$/);

    const overwrite = await api.call('PUT', summaryUrl(a.id), {
      as: coachA,
      body: { content: { ...SOAP, homework: 'x' } },
    });
    expectProblem(overwrite, 409, 'document_signed');
    expect(overwrite.body.detail).toContain('/summary/amendments');
    expectProblem(
      await api.call('PUT', summaryUrl(a.id), { as: coachA, body: { status: 'canceled' } }),
      409,
      'document_signed',
    );
    expectProblem(
      await api.call('PUT', summaryUrl(a.id), { as: admin, body: { status: 'completed' } }),
      409,
      'invalid_transition',
    );

    const amended = await api.call('POST', `${summaryUrl(a.id)}/amendments`, {
      as: coachA,
      body: { reason: 'Tippfehler', text: 'PSS 23 statt 24' },
    });
    expectStatus(amended, 201);
    expect(amended.body.content).toEqual(SOAP);
    expect(amended.body.amendments).toMatchObject([
      { reason: 'Tippfehler', text: 'PSS 23 statt 24' },
    ]);
    expect(amended.body.signature.verified).toBe(true);

    // A row changed behind the app's back no longer verifies.
    await api.database.db
      .update(appointmentSummaries)
      .set({ content: sql`jsonb_set(content, '{sections,objective}', '"PSS 10"')` })
      .where(eq(appointmentSummaries.appointmentId, a.id));
    const read = await api.call('GET', summaryUrl(a.id), { as: admin });
    expect(read.body.signature.verified).toBe(false);
    // Amendments cannot be changed at all.
    await expect(
      api.database.db.execute(sql`UPDATE clinical_amendments SET text = 'x'`),
    ).rejects.toThrow();
  });

  it('refuses signing with blockers, amendments on drafts, documents of appointments not held, and writes after cancel', async () => {
    clock = new Date();
    const a = await heldAppointment();
    expectStatus(
      await api.call('POST', summaryUrl(a.id), {
        as: coachA,
        body: { content: { format: 'SOAP', riskFlag: false } },
      }),
      201,
    );
    const blocked = await api.call('PUT', summaryUrl(a.id), {
      as: coachA,
      body: { status: 'sent' },
    });
    expectProblem(blocked, 409, 'task_blocked');
    expectProblem(
      await api.call('POST', `${summaryUrl(a.id)}/amendments`, {
        as: coachA,
        body: { reason: 'r', text: 't' },
      }),
      409,
      'document_not_signed',
    );
    expectStatus(
      await api.call('PUT', summaryUrl(a.id), { as: coachA, body: { status: 'canceled' } }),
      200,
    );
    expectProblem(
      await api.call('PUT', summaryUrl(a.id), { as: coachA, body: { content: SOAP } }),
      409,
      'invalid_transition',
    );

    const client = await newClient(api, admin, { coachedById: coachAId });
    const future = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coachAId,
      startDate: at(3, 9),
    });
    expectProblem(
      await api.call('POST', summaryUrl(future.id), { as: coachA, body: { content: SOAP } }),
      409,
      'appointment_not_held',
    );
  });
});

describe('patient card', () => {
  it('needs consent and a reason to be signed; every read is logged without content', async () => {
    clock = new Date();
    const a = await heldAppointment();
    const created = await api.call('POST', `/api/appointment/${a.id}/patient-card`, {
      as: coachA,
      body: {},
    });
    expectStatus(created, 201);
    expect(created.body.blockers.map((b: { code: string }) => b.code)).toEqual([
      'consent_missing',
      'reason_missing',
    ]);
    expect(created.body.blockers[0].message).toContain('Einwilligung');
    expectProblem(
      await api.call('POST', `/api/appointment/${a.id}/patient-card`, { as: coachA, body: {} }),
      409,
      'patient_card_exists',
    );
    const url = `/api/patient-card/${created.body.id}`;
    expectProblem(
      await api.call('PUT', url, { as: coachA, body: { status: 'sent' } }),
      409,
      'task_blocked',
    );
    const content = {
      reason: 'Stress im Beruf',
      diagnoses: [{ code: 'F43.2', text: 'Anpassungsstörung' }],
      mentalStressIndicator: 7,
      consents: { processing: new Date().toISOString(), research: false, recordings: false },
    };
    const signed = await api.call('PUT', url, { as: coachA, body: { content, status: 'sent' } });
    expectStatus(signed, 200);
    expect(signed.body.signature.verified).toBe(true);
    expectProblem(
      await api.call('PUT', url, { as: coachA, body: { content } }),
      409,
      'document_signed',
    );

    const before = await api.database.db
      .select()
      .from(clinicalAccessLog)
      .where(eq(clinicalAccessLog.clientId, a.clientId));
    expectStatus(
      await api.call('GET', `/api/client/${a.clientId}/patient-card`, { as: coachA }),
      200,
    );
    expectStatus(
      await api.call('GET', `/api/client/${a.clientId}/patient-card`, { as: admin }),
      200,
    );
    const log = await api.call('GET', `/api/admin/client/${a.clientId}/clinical-access-log`, {
      as: admin,
    });
    expectStatus(log, 200);
    expect(log.body.entries).toHaveLength(before.length + 2);
    expect(log.body.entries[0]).toMatchObject({
      documentType: 'patient_card',
      documentId: created.body.id,
    });
    expect(JSON.stringify(log.body)).not.toContain('Stress im Beruf');
  });
});

describe('incomplete lists', () => {
  it('lists a summary 30 minutes after the start, with days overdue, until it is signed', async () => {
    const a = await heldAppointment(coachBId);
    const listed = async () => {
      const res = await api.call('GET', `/api/summaries/incomplete?limit=100&coachId=${coachBId}`, {
        as: admin,
      });
      expectStatus(res, 200);
      return res.body.summaries.find((s: { appointmentId: string }) => s.appointmentId === a.id);
    };
    clock = new Date(plusMinutes(a.startDate, 30));
    clock = new Date(clock.getTime() - 1);
    expect(await listed()).toBeUndefined();
    clock = new Date(plusMinutes(a.startDate, 30));
    expect(await listed()).toMatchObject({ status: 'missing', summaryId: null, daysOverdue: 0 });
    clock = new Date(plusMinutes(a.startDate, 2 * 24 * 60 + 60));
    expect((await listed()).daysOverdue).toBe(2);
    const status = await api.call('GET', `/api/tasks/overall-status?coachId=${coachBId}`, {
      as: om,
    });
    expect(status.body).toMatchObject({ status: 'blocker' });
    expect(status.body.overdue).toBeGreaterThan(0);
    const cards = await api.call(
      'GET',
      `/api/patient-cards/incomplete?limit=100&coachId=${coachBId}`,
      { as: om },
    );
    expect(cards.body.patientCards.map((c: { client: { id: string } }) => c.client.id)).toContain(
      a.clientId,
    );

    expectStatus(
      await api.call('POST', summaryUrl(a.id), { as: coachB, body: { content: SOAP } }),
      201,
    );
    expect(await listed()).toMatchObject({ status: 'new' });
    expectStatus(
      await api.call('PUT', summaryUrl(a.id), { as: coachB, body: { status: 'sent' } }),
      200,
    );
    expect(await listed()).toBeUndefined();
  });

  it('shows a coach only their own work', async () => {
    clock = new Date();
    const mine = await heldAppointment(coachAId);
    const theirs = await heldAppointment(coachBId);
    const res = await api.call('GET', '/api/summaries/incomplete?limit=100', { as: coachA });
    const ids = res.body.summaries.map((s: { appointmentId: string }) => s.appointmentId);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    const asked = await api.call('GET', `/api/summaries/incomplete?limit=100&coachId=${coachBId}`, {
      as: coachA,
    });
    expect(asked.body).toEqual({ summaries: [], itemCount: 0 });
    const pending = await api.call('GET', '/api/review/pending-by-coach?limit=100', { as: coachA });
    expect(
      pending.body.coaches.every((c: { coach: { id: string } }) => c.coach.id === coachAId),
    ).toBe(true);
  });
});

describe('review batches', () => {
  it('completes signed summaries all or nothing, and one of two overlapping batches wins', async () => {
    clock = new Date();
    const one = await signedSummary();
    const two = await signedSummary();
    const a = await heldAppointment();
    const draft = (
      await api.call('POST', summaryUrl(a.id), { as: coachA, body: { content: SOAP } })
    ).body;
    // Completing is for a role that reads the documents: a second admin here.
    const reviewer = await api.signIn('ADMIN');
    const refused = await api.call('POST', '/api/summaries/batch-process', {
      as: reviewer,
      body: { ids: [one.summary.id, two.summary.id, draft.id] },
    });
    expectProblem(refused, 409, 'batch_refused');
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        field: 'ids.2',
        id: draft.id,
        status: 'new',
        code: 'invalid_transition',
      }),
    ]);
    expect((await api.call('GET', summaryUrl(one.appointment.id), { as: admin })).body.status).toBe(
      'sent',
    );

    const [x, y] = await Promise.all([
      api.call('POST', '/api/summaries/batch-process', {
        as: admin,
        body: { ids: [one.summary.id, two.summary.id] },
      }),
      api.call('POST', '/api/summaries/batch-process', {
        as: reviewer,
        body: { ids: [two.summary.id, one.summary.id] },
      }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const after = (await api.call('GET', summaryUrl(two.appointment.id), { as: admin })).body;
    expect(after).toMatchObject({ status: 'completed', signature: { verified: true } });
    // Neither the coach nor an onboarding manager, who may not read it, completes it.
    for (const as of [coachA, om]) {
      expectProblem(
        await api.call('POST', '/api/summaries/batch-process', {
          as,
          body: { ids: [one.summary.id] },
        }),
        403,
      );
    }
  });
});

describe('access', () => {
  it('keeps content from other coaches and onboarding managers, logs every read, and survives erasure', async () => {
    clock = new Date();
    const { appointment, summary } = await signedSummary();
    expectProblem(await api.call('GET', summaryUrl(appointment.id), { as: coachB }), 404);
    expectProblem(
      await api.call('PUT', summaryUrl(appointment.id), {
        as: coachB,
        body: { status: 'canceled' },
      }),
      404,
    );
    expectProblem(await api.call('GET', summaryUrl(appointment.id), { as: om }), 403);
    expectStatus(await api.call('GET', '/api/tasks/overall-status', { as: om }), 200);

    expectStatus(await api.call('GET', summaryUrl(appointment.id), { as: coachA }), 200);
    const rows = await api.database.db
      .select()
      .from(clinicalAccessLog)
      .where(eq(clinicalAccessLog.documentId, summary.id));
    expect(rows).toHaveLength(1);

    expectStatus(
      await api.call('DELETE', `/api/admin/client/${appointment.clientId}`, { as: admin }),
      204,
    );
    const [kept] = await api.database.db
      .select()
      .from(appointmentSummaries)
      .where(eq(appointmentSummaries.id, summary.id));
    expect(kept?.status).toBe('sent');
    const log = await api.call(
      'GET',
      `/api/admin/client/${appointment.clientId}/clinical-access-log`,
      { as: admin },
    );
    expect(log.body.itemCount).toBe(1);
  });
});

describe('client clinical status (detail pages)', () => {
  it('shows statuses without content to the coach and the onboarding manager, not to another coach, and logs no read', async () => {
    clock = new Date();
    const { appointment: a, summary } = await signedSummary();
    const url = `/api/client/${a.clientId}/clinical-status`;
    const before = await api.database.db
      .select()
      .from(clinicalAccessLog)
      .where(eq(clinicalAccessLog.clientId, a.clientId));
    for (const as of [coachA, om, admin]) {
      const res = await api.call('GET', url, { as });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({
        patientCard: null,
        summaries: [{ id: summary.id, appointmentId: a.id, status: 'sent', blockers: [] }],
      });
      expect(res.body.summaries[0].appointmentStartDate).toBe(new Date(a.startDate).toISOString());
      expect(JSON.stringify(res.body)).not.toContain('Schläft schlecht');
    }
    expectProblem(await api.call('GET', url, { as: coachB }), 404, 'not_found');
    const after = await api.database.db
      .select()
      .from(clinicalAccessLog)
      .where(eq(clinicalAccessLog.clientId, a.clientId));
    expect(after).toHaveLength(before.length);
  });

  it('says when review completed a document and by whom, not only when it was signed', async () => {
    clock = new Date();
    const { appointment: a, summary } = await signedSummary();
    const url = `/api/client/${a.clientId}/clinical-status`;
    const signed = (await api.call('GET', url, { as: om })).body.summaries[0];
    expect(signed).toMatchObject({ status: 'sent', completedAt: null, completedByName: null });
    clock = new Date(Date.now() + 3 * 60 * 60 * 1000);
    expectStatus(
      await api.call('POST', '/api/summaries/batch-process', {
        as: admin,
        body: { ids: [summary.id] },
      }),
      200,
    );
    const done = (await api.call('GET', url, { as: om })).body.summaries[0];
    expect(done).toMatchObject({ status: 'completed', signedAt: signed.signedAt });
    expect(done.completedAt).toBe(clock.toISOString());
    expect(done.completedByName).toEqual(expect.any(String));
    const read = (await api.call('GET', summaryUrl(a.id), { as: admin })).body;
    expect(done.completedByName).toBe(read.completedByName);
  });
});
