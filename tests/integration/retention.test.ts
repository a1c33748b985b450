import { eq, inArray, sql } from 'drizzle-orm';
import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appointments,
  appointmentSummaries,
  clients,
  clinicalAccessLog,
  clinicalAmendments,
  communications,
  events,
  idempotencyKeys,
} from '../../server/db/schema/index';
import { verifySignedDocuments } from '../../server/features/clinical/index';
import { RETENTION_JOB } from '../../server/features/retention/index';
import { createApi, type Api } from '../support/api';
import { SOAP, summaryUrl } from './clinical-support';
import { at, expectStatus, newAppointment, newClient, newCoach } from './fixtures';

// Retention on a simulated clock: records made today, then the queue's clock jumps ahead two
// and ten years and the nightly job runs as it would on those nights.
const DAY = 24 * 60 * 60_000;
const clock = new TestClock(new Date());
const started = clock.now();
let api: Api;
let coach: Awaited<ReturnType<Api['signIn']>>;
let admin: Awaited<ReturnType<Api['signIn']>>;
let treated: { id: string };
let continuing: { id: string };
let neverStarted: { id: string };
let heldId: string;

const yearsLater = (years: number, days = 2) => {
  const d = new Date(started);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return new Date(d.getTime() + days * DAY);
};

async function runRetentionAt(time: Date) {
  await clock.setTime(time);
  await api.app.jobs.send(api.database.db, RETENTION_JOB, {});
  await api.app.jobs.runDue();
}

const exists = async (id: string) =>
  (await api.database.db.select({ id: clients.id }).from(clients).where(eq(clients.id, id)))
    .length === 1;

beforeAll(async () => {
  api = await createApi({ jobs: { clock } });
  admin = await api.signIn('ADMIN');
  const coachId = (await newCoach(api, admin)).id;
  coach = await api.signIn('COACH', { coachId });

  // Treated a month ago: a held appointment, its signed and amended summary, read once.
  treated = await newClient(api, admin, {
    coachedById: coachId,
    email: 'behandelt@klient.example',
  });
  heldId = (
    await newAppointment(api, admin, { clientId: treated.id, coachId, startDate: at(-30, 8) })
  ).id;
  expectStatus(
    await api.call('POST', summaryUrl(heldId), { as: coach, body: { content: SOAP } }),
    201,
  );
  expectStatus(
    await api.call('PUT', summaryUrl(heldId), { as: coach, body: { status: 'sent' } }),
    200,
  );
  expectStatus(
    await api.call('POST', `${summaryUrl(heldId)}/amendments`, {
      as: coach,
      body: { reason: 'Ergänzung', text: 'Nachtrag' },
      headers: { 'idempotency-key': 'retention-amendment-1' },
    }),
    201,
  );
  expectStatus(await api.call('GET', summaryUrl(heldId), { as: coach }), 200);

  // Treatment that goes on: an appointment two years from now.
  continuing = await newClient(api, admin, { coachedById: coachId });
  await newAppointment(api, admin, { clientId: continuing.id, coachId, startDate: at(730, 8) });

  // Signed up, never booked.
  neverStarted = await newClient(api, admin, { email: 'nie@klient.example' });

  // The booking mails go out (captured), so the log holds sent messages.
  await api.app.jobs.runDue();
}, 180_000);

afterAll(() => api?.close());

describe('retention', () => {
  it('is scheduled every night', async () => {
    expect(await api.app.jobs.schedules()).toContainEqual({
      name: RETENTION_JOB,
      cron: '30 2 * * *',
    });
  });

  it('after two years: forgets the client who never started, the message log and idempotency keys', async () => {
    const db = api.database.db;
    expect(
      await db.select().from(communications).where(eq(communications.status, 'sent')),
    ).not.toEqual([]);
    expect(await db.select().from(idempotencyKeys)).not.toEqual([]);

    await runRetentionAt(yearsLater(2));

    expect(await exists(neverStarted.id)).toBe(false);
    expect(await exists(treated.id)).toBe(true);
    expect(await exists(continuing.id)).toBe(true);
    expect(await db.select().from(communications).where(eq(communications.status, 'sent'))).toEqual(
      [],
    );
    expect(await db.select().from(idempotencyKeys)).toEqual([]);
    // Clinical documentation and its access log are kept.
    expect(await db.select().from(appointmentSummaries)).toHaveLength(1);
    expect(await db.select().from(clinicalAmendments)).toHaveLength(1);
    expect((await db.select().from(clinicalAccessLog)).length).toBeGreaterThan(0);

    // Recorded as counts only: no ids, names or addresses of what went.
    const [event] = await db.select().from(events).where(eq(events.type, 'retention.deleted'));
    expect(event).toMatchObject({
      source: 'system',
      entityId: null,
      clientId: null,
      actorUserId: null,
    });
    expect(event!.changes).toMatchObject({
      deleted: { neverStartedClients: 1, clinicalDocumentation: 0 },
    });
    // The activity feed lists it, in the contract's shape.
    const feed = await api.call('GET', '/api/events', {
      as: admin,
      query: { showAllEvents: true },
    });
    expectStatus(feed, 200);
    expect(JSON.stringify(feed.body)).toContain('retention.deleted');
    const recorded = JSON.stringify(event);
    for (const secret of [neverStarted.id, 'nie@klient.example', 'behandelt@klient.example']) {
      expect(recorded).not.toContain(secret);
    }
  });

  it('ten years after the last treatment: deletes the documentation and then the client, nothing dangling', async () => {
    const db = api.database.db;
    await runRetentionAt(yearsLater(10));

    expect(await db.select().from(appointmentSummaries)).toEqual([]);
    expect(await db.select().from(clinicalAmendments)).toEqual([]);
    expect(
      await db.select().from(clinicalAccessLog).where(eq(clinicalAccessLog.clientId, treated.id)),
    ).toEqual([]);
    expect(await exists(treated.id)).toBe(false);
    expect(await db.select().from(appointments).where(eq(appointments.id, heldId))).toEqual([]);
    // The client whose treatment went on two more years stays, with their appointment.
    expect(await exists(continuing.id)).toBe(true);
    expect(
      await db.select().from(appointments).where(eq(appointments.clientId, continuing.id)),
    ).toHaveLength(1);

    // Referential integrity: no amendment, comment or open-work row names a document that is gone.
    const [dangling] = (
      (await db.execute(sql`
        SELECT (SELECT count(*) FROM clinical_amendments a WHERE NOT EXISTS (SELECT 1 FROM appointment_summaries s WHERE s.id = a.document_id) AND NOT EXISTS (SELECT 1 FROM patient_cards p WHERE p.id = a.document_id))::int
             + (SELECT count(*) FROM clinical_review_comments c WHERE NOT EXISTS (SELECT 1 FROM appointment_summaries s WHERE s.id = c.document_id) AND NOT EXISTS (SELECT 1 FROM patient_cards p WHERE p.id = c.document_id))::int
             + (SELECT count(*) FROM clinical_open_summaries o WHERE o.summary_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM appointment_summaries s WHERE s.id = o.summary_id))::int AS n`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    expect(dangling!.n).toBe(0);
    expect((await verifySignedDocuments(db)).broken).toEqual([]);

    const recorded = await db.select().from(events).where(eq(events.type, 'retention.deleted'));
    expect(recorded.at(-1)!.changes).toMatchObject({
      deleted: { clinicalDocumentation: 1, formerClients: 1 },
    });
    // The business events about the deleted client keep only ids (the audit trail), no names.
    const about = await db
      .select()
      .from(events)
      .where(inArray(events.clientId, [treated.id]));
    expect(JSON.stringify(about)).not.toContain('behandelt@klient.example');
  });
});
