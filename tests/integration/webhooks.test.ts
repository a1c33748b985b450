import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { communications, webhooks } from '../../server/db/schema/index';
import {
  DELIVER_WEBHOOK_JOB,
  emitWebhook,
  newWebhookSecret,
  sealStoredSecrets,
} from '../../server/features/webhooks/index';
import { testClock } from './notifications-support';
import {
  at,
  expectFieldError,
  expectProblem,
  expectStatus,
  newClient,
  newCoach,
  newAppointment,
  startApi,
} from './fixtures';
import type { Api } from '../support/api';
import { startReceiver } from '../support/webhook-receiver';
import { keyringOf, sealSecret } from '../../server/features/webhooks/secret-box';
import { ADDRESS, itemMaker } from './billing-support';

// Outgoing webhooks against a local receiver; every request is verified with the
// Standard Webhooks library's own `verify`.

const clock = testClock();
let api: Api;
let superadmin: { authorization: string };
let admin: { authorization: string; email: string; userId: string };
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret: string;

const TYPE = 'appointment.created';
const configure = (type: string, url: string, active = true) =>
  api.call('POST', `/api/admin/webhook/${type}`, { as: superadmin, body: { url, active } });
const runDue = () => api.app.jobs.runDue();
/** The list's row of a type: the endpoint with its newest delivery (one call for all types). */
const listed = async (type = TYPE) => {
  const res = await api.call('GET', '/api/admin/webhook', { as: superadmin });
  expectStatus(res, 200);
  return (res.body.webhooks as Array<{ type: string; lastDelivery: unknown }>).find(
    (w) => w.type === type,
  )!;
};
const log = async (type = TYPE) =>
  (await api.call('GET', `/api/admin/webhook/${type}/deliveries`, { as: superadmin })).body
    .deliveries as Array<{
    messageId: string;
    eventType: string;
    status: string;
    nextAttemptAt: string | null;
    attempts: Array<{
      httpStatus: number | null;
      outcome: string;
      error: string | null;
      responseSnippet: string | null;
      manual: boolean;
    }>;
  }>;

/** Verifies a received request with the library and answers its parsed payload. */
const verified = (r: { headers: Record<string, unknown>; body: string }, key = secret) =>
  new Webhook(key).verify(r.body, r.headers as Record<string, string>) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };

async function book() {
  const coach = await newCoach(api, admin);
  const client = await newClient(api, admin, { firstName: 'Geheim', lastName: 'Person' });
  return newAppointment(api, admin, {
    clientId: client.id,
    coachId: coach.id,
    startDate: at(3, 9),
  });
}

beforeAll(async () => {
  receiver = await startReceiver();
  ({
    api,
    callers: [superadmin, admin],
  } = await startApi(
    {
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '300' },
      jobs: { clock },
    },
    'SUPERADMIN',
    'ADMIN',
  ));
  const res = await configure(TYPE, receiver.url());
  expectStatus(res, 200);
  secret = res.body.secret;
});
afterAll(async () => {
  await api?.close();
  await receiver?.close();
});
beforeEach(async () => {
  await runDue();
  receiver.received.length = 0;
});

describe('configuration', () => {
  it('generates the secret on the first save, shows it once and never again', async () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const again = await configure(TYPE, receiver.url());
    expect(again.body.secret).toBeNull();
    expect(again.body.webhook).toMatchObject({
      url: receiver.url(),
      secretSet: true,
      active: true,
    });
    const list = await api.call('GET', '/api/admin/webhook', { as: superadmin });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(
      list.body.webhooks.find((w: { type: string }) => w.type === 'summary.signed'),
    ).toMatchObject({ url: null, secretSet: false });
  });

  it('keeps the secret sealed in the database; deliveries still verify with it', async () => {
    const stored = async (type: (typeof webhooks.$inferSelect)['type']) =>
      (await api.database.db.select().from(webhooks).where(eq(webhooks.type, type)))[0]!;
    const row = await stored(TYPE);
    expect(row.secret).toMatch(/^wsk1\./);
    expect(row.secret).not.toContain(secret);
    expect(row.secret).not.toContain(secret.slice(6, 30));

    // A row written before secrets were sealed (clear text) still signs, and the start seals it.
    const type = 'client.sessions_closed' as const;
    await configure(type, receiver.url('/old'));
    const clear = newWebhookSecret();
    await api.database.db.update(webhooks).set({ secret: clear }).where(eq(webhooks.type, type));
    const send = async () => {
      expectStatus(
        await api.call('POST', `/api/admin/webhook/${type}/test`, { as: superadmin }),
        202,
      );
      await runDue();
      return verified(receiver.received.at(-1)!, clear);
    };
    expect((await send()).type).toBe('webhook.test');
    expect(await sealStoredSecrets(api.database.db, api.config)).toBe(1);
    expect(await sealStoredSecrets(api.database.db, api.config)).toBe(0);
    expect((await stored(type)).secret).not.toContain(clear.slice(6, 30));
    expect((await send()).type).toBe('webhook.test');
    expect(receiver.received).toHaveLength(2);
  });

  it('takes only http(s) URLs and is for SUPERADMIN only', async () => {
    expectFieldError(await configure(TYPE, 'ftp://127.0.0.1/x'), 'url');
    // Private targets are allowed here; the metadata service never is.
    expectFieldError(await configure(TYPE, 'http://169.254.169.254/latest'), 'url');
    expectFieldError(await configure(TYPE, 'http://metadata.google.internal/'), 'url');
    expectFieldError(await configure(TYPE, 'http://[::ffff:169.254.169.254]/'), 'url');
    const res = await api.call('POST', `/api/admin/webhook/${TYPE}`, {
      as: admin,
      body: { url: receiver.url(), active: true },
    });
    expectProblem(res, 403);
  });
});

describe('delivery', () => {
  it('sends a booking once, signed, thin, with the same id in the log', async () => {
    const appointment = await book();
    expect(receiver.received).toHaveLength(0);
    await runDue();
    expect(receiver.received).toHaveLength(1);
    const payload = verified(receiver.received[0]!);
    expect(payload.type).toBe('appointment.created');
    expect(payload.data).toMatchObject({
      appointmentId: appointment.id,
      coachId: appointment.coachId,
    });
    // Thin: no names (or any other client field) travel.
    expect(receiver.received[0]!.body).not.toContain('Geheim');
    const [entry] = await log();
    expect(entry!.messageId).toBe(receiver.received[0]!.headers['webhook-id']);
    expect(entry!.status).toBe('delivered');
    expect(entry!.attempts).toEqual([
      expect.objectContaining({
        httpStatus: 200,
        outcome: 'success',
        responseSnippet: 'ok',
        manual: false,
      }),
    ]);
    // The list answers the newest delivery of each type itself.
    expect((await listed()).lastDelivery).toEqual({
      messageId: entry!.messageId,
      eventType: TYPE,
      createdAt: expect.any(String),
      status: 'delivered',
      attemptedAt: expect.any(String),
      httpStatus: 200,
      ok: true,
    });
    expect((await listed('summary.signed')).lastDelivery).toBeNull();
  });

  it('sends nothing for a change that rolls back', async () => {
    await expect(
      api.database.db.transaction(async (tx) => {
        await emitWebhook(tx, api.app.jobs, TYPE, { appointmentId: 'x' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await api.app.jobs.waiting(DELIVER_WEBHOOK_JOB)).toHaveLength(0);
    await runDue();
    expect(receiver.received).toHaveLength(0);
  });

  it('retries after a 500 and after a timeout by the schedule, with the same webhook-id', async () => {
    receiver.answer({ status: 500, body: 'kaputt' }, { status: 200, delayMs: 1000 });
    await book();
    await runDue();
    let [entry] = await log();
    expect(entry!.status).toBe('pending');
    expect(entry!.attempts[0]).toMatchObject({
      httpStatus: 500,
      outcome: 'failed',
      responseSnippet: 'kaputt',
    });
    // About 5 s later (±10 %), not before.
    const wait = Date.parse(entry!.nextAttemptAt!) - clock.now();
    expect(wait).toBeGreaterThanOrEqual(4_400);
    expect(wait).toBeLessThanOrEqual(5_600);
    expect(await runDue()).toBe(0);
    expect((await listed()).lastDelivery).toMatchObject({
      messageId: entry!.messageId,
      status: 'pending',
      httpStatus: 500,
      ok: false,
    });

    await clock.tick(6_000);
    await runDue();
    [entry] = await log();
    expect(entry!.attempts[1]).toMatchObject({ httpStatus: null, outcome: 'failed' });
    expect(entry!.attempts[1]!.error).toMatch(/no answer within 300 ms/);

    await clock.tick(6 * 60_000);
    await runDue();
    [entry] = await log();
    expect(entry!.status).toBe('delivered');
    expect(receiver.received).toHaveLength(3);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const r of receiver.received) verified(r);
  });

  it('waits at least as long as retry-after asks', async () => {
    receiver.answer({ status: 503, headers: { 'retry-after': '900' } });
    await book();
    await runDue();
    const [entry] = await log();
    expect(Date.parse(entry!.nextAttemptAt!) - clock.now()).toBeGreaterThanOrEqual(899_000);
    await clock.tick(901_000);
    await runDue();
    expect((await log())[0]!.status).toBe('delivered');
  });

  it('counts a redirect as a failure', async () => {
    receiver.answer({ status: 302, headers: { location: receiver.url('/elsewhere') } });
    await book();
    await runDue();
    expect(receiver.received.map((r) => r.headers.host)).toHaveLength(1);
    expect((await log())[0]!.attempts[0]).toMatchObject({ httpStatus: 302, outcome: 'failed' });
    await clock.tick(6_000);
    await runDue();
  });
});

describe('billing', () => {
  it('announces each approved item of a batch, one message each', async () => {
    const type = 'billable_item.approved';
    const key = (await configure(type, receiver.url('/billing'))).body.secret as string;
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin, { ...ADDRESS });
    const item = itemMaker(api, admin);
    const ids = [await item(client.id, coach.id), await item(client.id, coach.id)];
    await runDue();
    receiver.received.length = 0;
    const res = await api.call('PUT', '/api/billable-items/batch-approve', {
      as: admin,
      body: { ids },
    });
    expectStatus(res, 200);
    await runDue();
    const payloads = receiver.received.map((r) => verified(r, key));
    expect(payloads.map((p) => p.data.billableItemId).sort()).toEqual([...ids].sort());
    expect(payloads.every((p) => p.type === type && p.data.status === 'approved')).toBe(true);
  });
});

describe('rotation, test event, deliver again', () => {
  it('signs with the old and the new secret while a rotation lasts', async () => {
    const res = await api.call('POST', `/api/admin/webhook/${TYPE}/rotate-secret`, {
      as: superadmin,
    });
    expectStatus(res, 200);
    const fresh = res.body.secret as string;
    expect(fresh).not.toBe(secret);
    expect(res.body.webhook.previousSecretUntil).not.toBeNull();
    const [row] = await api.database.db.select().from(webhooks).where(eq(webhooks.type, TYPE));
    for (const value of [row!.secret!, row!.previousSecret!]) {
      expect(value).toMatch(/^wsk1\./);
      expect(value).not.toContain(fresh.slice(6, 30));
      expect(value).not.toContain(secret.slice(6, 30));
    }
    await book();
    await runDue();
    const [request] = receiver.received;
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(request!, secret).type).toBe(TYPE);
    expect(verified(request!, fresh).type).toBe(TYPE);
    // A day later only the new secret signs.
    await clock.setTime(clock.now() + 25 * 3_600_000);
    await book();
    await runDue();
    expect(() => verified(receiver.received[1]!, secret)).toThrow();
    expect(verified(receiver.received[1]!, fresh).type).toBe(TYPE);
    secret = fresh;
  });

  it('sends a test event and delivers a message again under the same webhook-id', async () => {
    const test = await api.call('POST', `/api/admin/webhook/${TYPE}/test`, { as: superadmin });
    expectStatus(test, 202);
    expect(test.body).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
    expect((await listed()).lastDelivery).toMatchObject({
      messageId: test.body.messageId,
      eventType: 'webhook.test',
      status: 'pending',
      attemptedAt: null,
      httpStatus: null,
      ok: false,
    });
    await runDue();
    expect(verified(receiver.received[0]!)).toMatchObject({
      type: 'webhook.test',
      data: { webhookType: TYPE },
    });

    const again = await api.call(
      'POST',
      `/api/admin/webhook/${TYPE}/deliveries/${test.body.messageId}/redeliver`,
      { as: superadmin },
    );
    expectStatus(again, 202);
    await runDue();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(test.body.messageId);
    verified(receiver.received[1]!);
    const entry = (await log()).find((d) => d.messageId === test.body.messageId)!;
    expect(entry.attempts.map((a) => a.manual)).toEqual([true, true]);

    const unknown = await api.call(
      'POST',
      `/api/admin/webhook/${TYPE}/deliveries/${randomUUID()}/redeliver`,
      { as: superadmin },
    );
    expectProblem(unknown, 404);
  });
});

describe('a secret that does not open', () => {
  it('is a failed attempt with a clear error in the log, retried; rotating the secret heals it', async () => {
    const type = 'billable_item.invoice_sent';
    await configure(type, receiver.url('/sealed'));
    // Sealed with a key this server does not have (WEBHOOK_SECRET_KEY changed without
    // WEBHOOK_SECRET_KEY_PREVIOUS).
    const foreign = keyringOf({ WEBHOOK_SECRET_KEY: 'another-installation-key-0123456789abcdef' });
    await api.database.db
      .update(webhooks)
      .set({ secret: sealSecret(foreign, type, newWebhookSecret()) })
      .where(eq(webhooks.type, type));
    // The start leaves it alone (instead of failing) and names the type.
    const unreadable: string[] = [];
    expect(await sealStoredSecrets(api.database.db, api.config, (t) => unreadable.push(t))).toBe(0);
    expect(unreadable).toEqual([type]);

    await emitWebhook(api.database.db, api.app.jobs, type, {
      billableItemId: 'x',
      status: 'invoiced',
    });
    await runDue();
    expect(receiver.received).toHaveLength(0);
    let [entry] = await log(type);
    expect(entry!.status).toBe('pending');
    expect(entry!.nextAttemptAt).not.toBeNull();
    expect(entry!.attempts).toEqual([
      expect.objectContaining({ outcome: 'failed', httpStatus: null, manual: false }),
    ]);
    expect(entry!.attempts[0]!.error).toMatch(
      /Signiergeheimnis nicht lesbar.*WEBHOOK_SECRET_KEY_PREVIOUS/,
    );

    // "Send a test event" is logged the same way.
    const test = await api.call('POST', `/api/admin/webhook/${type}/test`, { as: superadmin });
    expectStatus(test, 202);
    await runDue();
    const tested = (await log(type)).find((d) => d.messageId === test.body.messageId)!;
    expect(tested.attempts).toEqual([expect.objectContaining({ outcome: 'failed', manual: true })]);
    expect(tested.attempts[0]!.error).toMatch(/Signiergeheimnis nicht lesbar/);
    expect(receiver.received).toHaveLength(0);

    // A new secret: the pending message goes out at its next attempt, signed with it.
    const rotated = await api.call('POST', `/api/admin/webhook/${type}/rotate-secret`, {
      as: superadmin,
    });
    expectStatus(rotated, 200);
    expect(rotated.body.webhook.previousSecretUntil).toBeNull();
    await clock.tick(6_000);
    await runDue();
    [entry] = (await log(type)).filter((d) => d.messageId === entry!.messageId);
    expect(entry!.status).toBe('delivered');
    expect(receiver.received).toHaveLength(1);
    expect(verified(receiver.received[0]!, rotated.body.secret as string).type).toBe(type);
  });
});

describe('switching off', () => {
  it('switches the webhook off at once on 410 and sends nothing more', async () => {
    const type = 'appointment.cancelled';
    await configure(type, receiver.url('/gone'));
    const appointment = await book();
    await runDue();
    receiver.answer({ status: 410 });
    expectStatus(
      await api.call('DELETE', `/api/appointment/${appointment.id}`, { as: admin }),
      200,
    );
    await runDue();
    const hook = (await api.call('GET', `/api/admin/webhook/${type}`, { as: superadmin })).body;
    expect(hook).toMatchObject({ active: false, disabledReason: 'gone' });
    expect((await log(type))[0]!.status).toBe('failed');
    expect(await api.app.jobs.waiting(DELIVER_WEBHOOK_JOB)).toHaveLength(0);
  });

  it('switches off after days of failures only and mails the admins', async () => {
    const type = 'client.created';
    await configure(type, receiver.url('/down'));
    await api.database.db
      .update(webhooks)
      .set({ failingSince: new Date(clock.now() - 6 * 24 * 3_600_000).toISOString() })
      .where(eq(webhooks.type, type));
    receiver.answer({ status: 500 });
    await newClient(api, admin);
    await runDue();
    const hook = (await api.call('GET', `/api/admin/webhook/${type}`, { as: superadmin })).body;
    expect(hook).toMatchObject({ active: false, disabledReason: 'failing' });
    const mails = await api.database.db
      .select()
      .from(communications)
      .where(
        and(
          eq(communications.template, 'webhook_disabled'),
          eq(communications.recipient, admin.email),
        ),
      );
    expect(mails).toHaveLength(1);
    // Its Message-ID names the switch-off and the admin, the same on any retry of the job.
    expect(mails[0]!.providerMessageId).toMatch(
      new RegExp(`^<webhook-[0-9a-f-]{36}-disabled-\\d+-${admin.userId}@`),
    );
    // Switching it on again clears the record.
    const on = await configure(type, receiver.url('/down'));
    expect(on.body.webhook).toMatchObject({ active: true, disabledAt: null, failingSince: null });
  });
});

describe('address rules with private targets not allowed', () => {
  let strict: Api;
  let owner: { authorization: string };
  beforeAll(async () => {
    ({
      api: strict,
      callers: [owner],
    } = await startApi({ jobs: { clock: testClock() } }, 'SUPERADMIN'));
  });
  afterAll(async () => {
    await strict?.close();
  });

  // The probe's list: every notation of an internal address the URL parser accepts.
  it.each([
    'http://127.0.0.1/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.1/hook',
    'http://0.0.0.0/hook',
    'http://2130706433/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://localhost:8080/hook',
  ])('refuses %s when saved, naming the field, and stores nothing', async (url) => {
    const type = 'client.created';
    const saved = await strict.call('POST', `/api/admin/webhook/${type}`, {
      as: owner,
      body: { url, active: true },
    });
    expectFieldError(saved, 'url');
    expect(saved.body.errors[0].code).toBe('webhook_target_refused');
    const stored = await strict.database.db.select().from(webhooks).where(eq(webhooks.type, type));
    expect(stored).toHaveLength(0);
  });

  it('saves a public name that does not resolve yet (delivery checks it again)', async () => {
    const saved = await strict.call('POST', `/api/admin/webhook/client.updated`, {
      as: owner,
      body: { url: 'https://hooks.example.test/in', active: true },
    });
    expectStatus(saved, 200);
  });

  // Targets saved before the rule, or names that resolve differently later: refused when sent.
  it.each([
    ['a name that resolves to 127.0.0.1', () => `http://localhost:${receiver.port}/hook`],
    ['a loopback address', () => receiver.url()],
    ['a private address', () => 'http://10.1.2.3/hook'],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data'],
    ['IPv6 loopback', () => `http://[::1]:${receiver.port}/hook`],
  ])(
    'refuses %s at delivery, sends nothing and records the test as refused',
    async (_name, url) => {
      await strict.database.db
        .insert(webhooks)
        .values({ type: TYPE, url: url(), active: true })
        .onConflictDoUpdate({ target: webhooks.type, set: { url: url(), active: true } });
      const test = await strict.call('POST', `/api/admin/webhook/${TYPE}/test`, { as: owner });
      expectStatus(test, 202);
      await strict.app.jobs.runDue();
      const entry = (
        await strict.call('GET', `/api/admin/webhook/${TYPE}/deliveries`, { as: owner })
      ).body.deliveries.find((d: { messageId: string }) => d.messageId === test.body.messageId);
      expect(entry).toMatchObject({ status: 'failed', nextAttemptAt: null });
      expect(entry.attempts).toHaveLength(1);
      expect(entry.attempts[0]).toMatchObject({ outcome: 'refused', httpStatus: null });
      expect(receiver.received).toHaveLength(0);
    },
  );
});
