import { eq, inArray, sql } from 'drizzle-orm';
import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appointments,
  authEmails,
  authIdentities,
  authOtpSecrets,
  authSessions,
  authUsers,
  authWebauthnCredentials,
  appointmentSummaries,
  billableItems,
  clients,
  clinicalAccessLog,
  clinicalAmendments,
  communications,
  events,
  idempotencyKeys,
  invoiceItems,
  invoiceNumberCounters,
  invoices,
  users,
} from '../../server/db/schema/index';
import { verifySignedDocuments } from '../../server/features/clinical/index';
import { RETENTION_JOB } from '../../server/features/retention/index';
import { createApi, type Api } from '../support/api';
import { createAuthTestApp, uniqueEmail, type AuthTestApp } from '../support/auth-client';
import { ADDRESS, itemMaker, makeRule } from './billing-support';
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
let noShow: { id: string };
let heldId: string;
/** The invoices: the treated client's, and the no-show fee's (cancelled, its Storno, again). */
let invoiceYear: number;
let treatedInvoice: string;
let feeInvoice: string;
let feeStorno: string;
let feeAgain: string;
let treatedItem: string;

const treatedName = 'Behandelt-Rechnung';

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
    ...ADDRESS,
    lastName: treatedName,
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

  // Invoiced: a session of the treated client, and the fee of a client who missed their only
  // appointment (never treated). The fee's invoice was cancelled by a Storno, which was
  // issued in January of the next year, and invoiced again.
  await makeRule(api, admin, { name: 'Alles', amountCents: 11900, description: 'Coaching' });
  const item = itemMaker(api, admin);
  treatedItem = await item(treated.id, coachId, 'approved');
  noShow = await newClient(api, admin, { ...ADDRESS, email: 'ausgefallen@klient.example' });
  const feeItem = await item(noShow.id, coachId, 'approved');
  const db = api.database.db;
  const [fee] = await db
    .update(billableItems)
    .set({ occasion: 'no_show' })
    .where(eq(billableItems.id, feeItem))
    .returning();
  await db
    .update(appointments)
    .set({ noShow: true })
    .where(eq(appointments.id, fee!.appointmentId));
  const run = async (itemIds: string[]) => {
    const res = await api.call('POST', '/api/invoices/runs', {
      as: admin,
      body: { itemIds, issueWithoutAddress: true },
    });
    expectStatus(res, 201);
    return res.body.invoices as { id: string; recipientName: string }[];
  };
  const issued = await run([treatedItem, feeItem]);
  treatedInvoice = issued.find((i) => i.recipientName.includes(treatedName))!.id;
  feeInvoice = issued.find((i) => i.id !== treatedInvoice)!.id;
  const storno = await api.call('POST', `/api/invoices/${feeInvoice}/cancel`, {
    as: admin,
    body: { reason: 'Falscher Betrag' },
  });
  expectStatus(storno, 201);
  feeStorno = storno.body.id;
  feeAgain = (await run([feeItem]))[0]!.id;
  const [issuedRow] = await db.select().from(invoices).where(eq(invoices.id, feeStorno));
  invoiceYear = Number(issuedRow!.invoiceDate.slice(0, 4));
  await db
    .update(invoices)
    .set({ invoiceDate: `${invoiceYear + 1}-01-05` })
    .where(eq(invoices.id, feeStorno));

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

  it('keeps an invoice until the end of the eighth year after its year, then deletes it with its items and its cancellation pair', async () => {
    const db = api.database.db;
    const all = [treatedInvoice, feeInvoice, feeStorno, feeAgain];
    const left = async () =>
      (await db.select({ id: invoices.id }).from(invoices).where(inArray(invoices.id, all)))
        .map((r) => r.id)
        .sort();
    const [counterBefore] = await db
      .select()
      .from(invoiceNumberCounters)
      .where(eq(invoiceNumberCounters.year, invoiceYear));
    // The never-treated client with the invoiced fee outlived their own two years.
    expect(await exists(noShow.id)).toBe(true);

    await runRetentionAt(new Date(Date.UTC(invoiceYear + 8, 11, 31, 12)));
    expect(await left()).toEqual([...all].sort());

    // 02:30 in Berlin on the first of January after the eighth year.
    await runRetentionAt(new Date(Date.UTC(invoiceYear + 9, 0, 1, 1, 30)));
    // Both invoices of that year are gone with the links to what they billed; the cancelled
    // fee invoice stays as long as its Storno of the next year, and the client it bills.
    expect(await left()).toEqual([feeInvoice, feeStorno].sort());
    expect(
      await db
        .select()
        .from(invoiceItems)
        .where(inArray(invoiceItems.invoiceId, [treatedInvoice, feeAgain])),
    ).toEqual([]);
    expect(await exists(noShow.id)).toBe(true);
    // The treated client's own ten years are not over yet: their billed item stays with them.
    expect(await exists(treated.id)).toBe(true);
    expect(
      await db.select().from(billableItems).where(eq(billableItems.id, treatedItem)),
    ).toHaveLength(1);
    // The year's numbering counter stays: no number is issued twice.
    const [counterAfter] = await db
      .select()
      .from(invoiceNumberCounters)
      .where(eq(invoiceNumberCounters.year, invoiceYear));
    expect(counterAfter).toEqual(counterBefore);
    const recorded = await db.select().from(events).where(eq(events.type, 'retention.deleted'));
    expect(recorded.at(-1)!.changes).toMatchObject({ deleted: { invoices: 2 } });
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
      deleted: { clinicalDocumentation: 1, formerClients: 1, invoices: 2, neverStartedClients: 1 },
    });
    // The fee's pair went when its later half was due, and then the client it kept.
    expect(await db.select().from(invoices)).toEqual([]);
    expect(await exists(noShow.id)).toBe(false);
    // The business events about the deleted client keep only ids (the audit trail), no names.
    const about = await db
      .select()
      .from(events)
      .where(inArray(events.clientId, [treated.id]));
    expect(JSON.stringify(about)).not.toContain('behandelt@klient.example');
  });
});

describe('retention of sign-in accounts', () => {
  // Its own app with the real sign-in provider, on its own simulated clock.
  const accountsClock = new TestClock(new Date());
  let t: AuthTestApp;

  beforeAll(async () => {
    // Without the provider's short cache of live sessions (5 s by default), so the test need
    // not wait it out.
    t = await createAuthTestApp({
      jobs: { clock: accountsClock },
      env: { AUTH_SESSION_CHECK_CACHE_MS: '0' },
    });
  }, 120_000);
  afterAll(() => t?.close());

  const productLogin = async (token: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
  };

  /** Registers at the provider and signs in to the product once; answers the token. */
  async function registered(email: string) {
    const done = await t.register(email);
    const token = String(done.headers['x-auth-token']);
    const login = await productLogin(token);
    expect(login.status).toBe(200);
    return { token, subject: done.payload!.user.id as string, userId: login.body.userId as string };
  }

  /** A passcode sign-in with the address: the last state of the flow. */
  async function signIn(email: string) {
    const init = await t.begin('login');
    const pc = await t.act(init, 'continue_with_login_identifier', { email });
    expect(pc.name).toBe('passcode_confirmation');
    const [mail] = await t.mails(email);
    const code = /Einmalcode für Sprechstunde: (\d{6})/.exec(mail?.body ?? '')?.[1] ?? '000000';
    return { state: await t.act(pc, 'verify_passcode', { code }), template: mail?.template };
  }

  it('deletes a deleted client’s account at the provider with the client; staff stays', async () => {
    const db = t.database.db;
    // A client who signed up, signed in and set up a second factor, a passkey and a
    // third-party link, but never booked.
    const clientEmail = uniqueEmail('klientin');
    const [record] = await db
      .insert(clients)
      .values({ firstName: 'Erika', lastName: 'Muster', email: clientEmail })
      .returning();
    const client = await registered(clientEmail);
    expect((await db.select().from(clients).where(eq(clients.id, record!.id)))[0]!.userId).toBe(
      client.userId,
    );
    await db.insert(authOtpSecrets).values({ userId: client.subject, secretEncrypted: 'x' });
    await db.insert(authWebauthnCredentials).values({
      id: 'passkey-der-klientin',
      userId: client.subject,
      publicKey: 'pk',
      attestationType: 'none',
      aaguid: '00000000-0000-0000-0000-000000000000',
    });
    await db
      .insert(authIdentities)
      .values({ userId: client.subject, provider: 'google', providerUserId: 'g-1' });

    // An admin whose own address was also entered as a (never treated) client record.
    const staffEmail = uniqueEmail('praxis');
    const staff = await registered(staffEmail);
    await db.update(users).set({ role: 'ADMIN', active: true }).where(eq(users.id, staff.userId));
    await db
      .insert(clients)
      .values({ firstName: 'Anna', lastName: 'Admin', email: staffEmail, userId: staff.userId });

    const later = new Date(Date.now() + 2 * 365 * DAY + 7 * DAY);
    await accountsClock.setTime(later);
    await t.app.jobs.send(db, RETENTION_JOB, {});
    await t.app.jobs.runDue();

    // Both client records are past their two years and gone.
    expect(await db.select().from(clients)).toEqual([]);
    // The client's account is gone at the product and at the provider, nothing left over.
    expect(await db.select().from(users).where(eq(users.id, client.userId))).toEqual([]);
    expect(await db.select().from(authUsers).where(eq(authUsers.id, client.subject))).toEqual([]);
    for (const table of [authEmails, authSessions, authOtpSecrets, authWebauthnCredentials]) {
      expect(await db.select().from(table).where(eq(table.userId, client.subject))).toEqual([]);
    }
    expect(await db.select().from(authIdentities)).toEqual([]);
    expect(
      JSON.stringify(await db.select().from(authEmails)).includes(clientEmail.toLowerCase()),
    ).toBe(false);
    // Their token is refused, and signing in meets an unknown address: no code, no session.
    expect((await productLogin(client.token)).status).toBe(401);
    const attempt = await signIn(clientEmail);
    expect(attempt.template).toBe('auth_email_login_attempted');
    expect(attempt.state.name).not.toBe('success');

    // The staff account is untouched and signs in as before.
    const [staffRow] = await db.select().from(users).where(eq(users.id, staff.userId));
    expect(staffRow).toMatchObject({ role: 'ADMIN', active: true, authSubject: staff.subject });
    const again = await signIn(staffEmail);
    expect(again.state.name).toBe('success');
    const login = await productLogin(String(again.state.headers['x-auth-token']));
    expect(login).toMatchObject({ status: 200, body: { userId: staff.userId, role: 'ADMIN' } });

    const [recorded] = await db.select().from(events).where(eq(events.type, 'retention.deleted'));
    expect(recorded!.changes).toMatchObject({
      deleted: { neverStartedClients: 2, signInAccounts: 1 },
    });
  });
});
