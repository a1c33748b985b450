import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../server/adapters/mail/mailer';
import { communications, supportMessages } from '../../server/db/schema/index';
import { setSupportMailer } from '../../server/features/support/handlers';
import { createApi, type Api } from '../support/api';
import { type Caller, expectFieldError, expectProblem, expectStatus } from './fixtures';

const TEAM = 'team@support.example.test';

let api: Api;
beforeAll(async () => {
  api = await createApi({ env: { SUPPORT_EMAIL: TEAM } });
});
afterAll(() => api.close());

const request = {
  category: 'scheduling',
  subject: 'Kalender zeigt keine Termine',
  message: 'Seit heute Morgen ist mein Kalender leer.\nBitte um Hilfe.',
};

const send = (as: Caller | null, body: unknown) =>
  api.call('POST', '/api/support/message', { as, body });

const mailsTo = (recipient: string) =>
  api.database.db
    .select()
    .from(communications)
    .where(eq(communications.recipient, recipient))
    .orderBy(desc(communications.createdAt));

const storedCount = async () => (await api.database.db.select().from(supportMessages)).length;

describe('POST /support/message (sendSupportMessage)', () => {
  it('stores the request, forwards it to the support address and confirms it to the sender', async () => {
    const coach = await api.signIn('COACH');
    const res = await send(coach, request);
    expectStatus(res, 201);

    const [row] = await api.database.db
      .select()
      .from(supportMessages)
      .where(eq(supportMessages.id, res.body.id));
    expect(row).toMatchObject({
      userId: coach.userId,
      senderEmail: coach.email,
      category: 'scheduling',
      subject: request.subject,
      message: request.message,
    });
    expect(row!.forwardedAt).not.toBeNull();

    const [forwarded] = await mailsTo(TEAM);
    expect(forwarded).toMatchObject({
      channel: 'email',
      status: 'sent',
      subject: `Supportanfrage: ${request.subject}`,
    });
    expect(forwarded!.body).toContain(request.message);
    expect(forwarded!.body).toContain(`Von: ${coach.email}`);
    expect(forwarded!.body).toContain('Thema: Termine und Kalender');
    expect(forwarded!.body).toContain(res.body.id);

    const [confirmation] = await mailsTo(coach.email);
    expect(confirmation!.subject).toBe(`Ihre Supportanfrage ist eingegangen: ${request.subject}`);
    expect(confirmation!.body).toContain('vielen Dank für Ihre Nachricht');
    expect(confirmation!.body).toContain(res.body.id);
    // Each names its request in its Message-ID: the same mail sent again is folded.
    expect(forwarded!.providerMessageId).toMatch(new RegExp(`^<support-${res.body.id}-forward@`));
    expect(confirmation!.providerMessageId).toMatch(
      new RegExp(`^<support-${res.body.id}-confirmation@`),
    );
  });

  it.each([
    ['category', { ...request, category: 'urgent' }],
    ['category', { subject: 'x', message: 'y' }],
    ['subject', { ...request, subject: '' }],
    ['subject', { ...request, subject: 'x'.repeat(201) }],
    ['subject', { ...request, subject: '   ' }],
    ['message', { ...request, message: 'x'.repeat(5001) }],
    ['message', { ...request, message: ' \n ' }],
    ['priority', { ...request, priority: 'high' }],
  ])('bad input names %s and stores and mails nothing', async (field, body) => {
    const admin = await api.signIn('ADMIN');
    const before = await storedCount();
    expectFieldError(await send(admin, body), field);
    expect(await storedCount()).toBe(before);
    expect(await mailsTo(admin.email)).toEqual([]);
  });

  it('is for staff: clients get 403, inactive staff 403, nobody signed in 401', async () => {
    expectProblem(await send(await api.signIn('NONE'), request), 403);
    expectProblem(await send(await api.signIn('COACH', { active: false }), request), 403);
    expectProblem(await send(null, request), 401);
    for (const role of ['ADMIN', 'ONBOARDING_MANAGER', 'SUPERADMIN'] as const) {
      expectStatus(await send(await api.signIn(role), request), 201);
    }
  });

  it('allows 5 requests per person in 15 minutes, then 429 with Retry-After', async () => {
    const manager = await api.signIn('ONBOARDING_MANAGER');
    for (let i = 0; i < 5; i++) expectStatus(await send(manager, request), 201);
    const refused = await send(manager, request);
    expectProblem(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await mailsTo(manager.email)).toHaveLength(5);
    // Someone else is not affected.
    expectStatus(await send(await api.signIn('ONBOARDING_MANAGER'), request), 201);
  });

  it('keeps the request when the mail server fails; forwardedAt stays empty', async () => {
    const failing: Mailer = {
      transport: 'smtp',
      send: async () => {
        throw new Error('connection refused');
      },
    } as unknown as Mailer;
    setSupportMailer(api.database.db, failing);
    try {
      const res = await send(await api.signIn('COACH'), request);
      expectStatus(res, 201);
      const [row] = await api.database.db
        .select()
        .from(supportMessages)
        .where(eq(supportMessages.id, res.body.id));
      expect(row!.forwardedAt).toBeNull();
    } finally {
      setSupportMailer(api.database.db, undefined);
    }
  });
});
