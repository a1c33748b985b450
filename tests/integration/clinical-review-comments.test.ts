import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicalAccessLog, users } from '../../server/db/schema/index';
import type { Api } from '../support/api';
import { SOAP, startClinical, summaryUrl, type ClinicalApp } from './clinical-support';
import { expectProblem, expectStatus, type Caller } from './fixtures';

// a reviewer reads a signed document, adds a review comment and completes it;
// the document names the signer, the amendment author, the commenter and the reviewer.

let api: Api;
let admin: Awaited<ReturnType<Api['signIn']>>;
let om: Caller, coachA: Caller, coachB: Caller;
let held: ClinicalApp['held'];

async function draftSummary() {
  const a = await held();
  expectStatus(
    await api.call('POST', summaryUrl(a.id), { as: coachA, body: { content: SOAP } }),
    201,
  );
  return a;
}

beforeAll(async () => {
  ({ api, admin, om, coachA, coachB, held } = await startClinical({
    firstDay: -400,
    coachA: { firstName: 'Greta', lastName: 'Gründlich' },
  }));
});
afterAll(() => api.close());

describe('review comments and names', () => {
  it('a reviewer comments on a signed summary; the document shows names and times, the read is logged', async () => {
    const a = await draftSummary();
    expectProblem(
      await api.call('POST', `${summaryUrl(a.id)}/review-comments`, {
        as: admin,
        body: { text: 'Zu früh' },
      }),
      409,
      'document_not_signed',
    );
    const signed = await api.call('PUT', summaryUrl(a.id), {
      as: coachA,
      body: { status: 'sent' },
    });
    expectStatus(signed, 200);
    expect(signed.body.signature.signedByName).toBe('Greta Gründlich');

    const empty = await api.call('POST', `${summaryUrl(a.id)}/review-comments`, {
      as: admin,
      body: { text: '   ' },
    });
    expectProblem(empty, 400, 'validation_failed');
    expect(empty.body.errors[0].field).toBe('text');

    const [adminUser] = await api.database.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, admin.userId));
    const before = (
      await api.database.db
        .select()
        .from(clinicalAccessLog)
        .where(
          and(
            eq(clinicalAccessLog.documentId, signed.body.id),
            eq(clinicalAccessLog.userId, admin.userId),
          ),
        )
    ).length;
    const commented = await api.call('POST', `${summaryUrl(a.id)}/review-comments`, {
      as: admin,
      body: { text: '  Plan bitte konkretisieren.  ' },
    });
    expectStatus(commented, 201);
    expect(commented.body.reviewComments).toEqual([
      {
        id: expect.any(String),
        authorId: admin.userId,
        authorName: adminUser!.email,
        createdAt: expect.any(String),
        text: 'Plan bitte konkretisieren.',
      },
    ]);
    const after = await api.database.db
      .select()
      .from(clinicalAccessLog)
      .where(
        and(
          eq(clinicalAccessLog.documentId, signed.body.id),
          eq(clinicalAccessLog.userId, admin.userId),
        ),
      );
    expect(after.length).toBe(before + 1);

    // The coach sees the comment and the names; an amendment is named too.
    const amended = await api.call('POST', `${summaryUrl(a.id)}/amendments`, {
      as: coachA,
      body: { reason: 'Tippfehler', text: 'PSS 25' },
    });
    expectStatus(amended, 201);
    expect(amended.body.amendments[0].authorName).toBe('Greta Gründlich');
    expect(amended.body.reviewComments).toHaveLength(1);
    // Comments are not part of what was signed: the hash still verifies.
    expect(amended.body.signature.verified).toBe(true);

    // Completed by review: the reviewer is named.
    expectStatus(
      await api.call('POST', '/api/summaries/batch-process', {
        as: admin,
        body: { ids: [signed.body.id] },
      }),
      200,
    );
    const read = await api.call('GET', summaryUrl(a.id), { as: coachA });
    expect(read.body).toMatchObject({
      status: 'completed',
      completedById: admin.userId,
      completedByName: adminUser!.email,
    });
    // Still commentable after completion.
    expectStatus(
      await api.call('POST', `${summaryUrl(a.id)}/review-comments`, {
        as: admin,
        body: { text: 'Danke.' },
      }),
      201,
    );
  });

  it('coaches, onboarding managers and other coaches cannot comment; others cannot even tell it exists', async () => {
    const a = await draftSummary();
    expectStatus(
      await api.call('PUT', summaryUrl(a.id), { as: coachA, body: { status: 'sent' } }),
      200,
    );
    const url = `${summaryUrl(a.id)}/review-comments`;
    expectStatus(await api.call('POST', url, { as: om, body: { text: 'x' } }), 403);
    expectStatus(await api.call('POST', url, { as: coachA, body: { text: 'x' } }), 403);
    expectStatus(await api.call('POST', url, { as: coachB, body: { text: 'x' } }), 403);
    // The onboarding manager reads no content, comments included.
    expectStatus(await api.call('GET', summaryUrl(a.id), { as: om }), 403);
    const read = await api.call('GET', summaryUrl(a.id), { as: coachA });
    expect(read.body.reviewComments).toEqual([]);
  });

  it('comments on a signed patient card by its id', async () => {
    const a = await held();
    const created = await api.call('POST', `/api/appointment/${a.id}/patient-card`, {
      as: coachA,
      body: {},
    });
    expectStatus(created, 201);
    const cardUrl = `/api/patient-card/${created.body.id}`;
    const content = {
      reason: 'Stress im Beruf',
      consents: { processing: new Date().toISOString(), research: false, recordings: false },
    };
    const signed = await api.call('PUT', cardUrl, {
      as: coachA,
      body: { content, status: 'sent' },
    });
    expectStatus(signed, 200);
    expect(signed.body.signature.signedByName).toBe('Greta Gründlich');
    const commented = await api.call('POST', `${cardUrl}/review-comments`, {
      as: admin,
      body: { text: 'Passt.' },
    });
    expectStatus(commented, 201);
    expect(commented.body.reviewComments[0]).toMatchObject({
      text: 'Passt.',
      authorId: admin.userId,
    });
    expectStatus(
      await api.call(
        'POST',
        `/api/patient-card/00000000-0000-4000-8000-000000000000/review-comments`,
        {
          as: admin,
          body: { text: 'x' },
        },
      ),
      404,
    );
  });
});
