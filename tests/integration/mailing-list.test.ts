import type { EventType } from '../../shared/contract/enums';
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, events, users, webhookMessages } from '../../server/db/schema/index';
import { SYNC_BATCH, syncable as syncableClients } from '../../server/features/mailing-list/sync';
import { parseBracketedForm } from '../../server/features/mailing-list/form-body';
import type { Api } from '../support/api';
import { createApi } from '../support/api';
import { startMailchimpFake } from '../support/mailchimp-fake';
import { expectFieldError, expectProblem, expectStatus, newClient, unique } from './fixtures';

// The mailing list both ways. Incoming: Mailchimp's form-encoded webhook (and
// JSON), authenticated by the secret in the URL. Outgoing: the sync job against a local fake
// of the two Marketing API calls.

const API_KEY = 'test0123456789abcdef-us1';
const LIST_ID = 'list0abc';
let fake: Awaited<ReturnType<typeof startMailchimpFake>>;
let api: Api;
let admin: { authorization: string };
let secret: string;

beforeAll(async () => {
  fake = await startMailchimpFake({ apiKey: API_KEY, listId: LIST_ID });
  api = await createApi({
    env: { MAILCHIMP_API_KEY: API_KEY, MAILCHIMP_LIST_ID: LIST_ID, MAILCHIMP_API_URL: fake.url },
  });
  admin = await api.signIn('ADMIN');
  secret = api.config.MAILCHIMP_WEBHOOK_SECRET!;
  // A client.updated receiver is configured: each change the list makes queues one message.
  const superadmin = await api.signIn('SUPERADMIN');
  expectStatus(
    await api.call('POST', '/api/admin/webhook/client.updated', {
      as: superadmin,
      body: { url: 'https://receiver.example.test/hook', active: true },
    }),
    200,
  );
});
afterAll(async () => {
  await api?.close();
  await fake?.close();
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** Posts the webhook the way Mailchimp does: form-encoded, secret in the query. */
const postForm = (fields: Record<string, string>, query: Record<string, string> = { secret }) =>
  api.call('POST', '/api/mailchimp/webhook', {
    query,
    rawBody: form(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
const postJson = (body: unknown) =>
  api.call('POST', '/api/mailchimp/webhook', { query: { secret }, body });

const clientRow = async (id: string) =>
  (await api.database.db.select().from(clients).where(eq(clients.id, id)))[0]!;
/** The client.updated webhooks queued for a client (payload `data.clientId`). */
const updatesSent = async (clientId: string) =>
  (
    await api.database.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.type, 'client.updated'))
  )
    .map((m) => JSON.parse(m.payload) as { type: string; data: Record<string, unknown> })
    .filter((p) => p.data.clientId === clientId);
const eventsOf = (clientId: string, type?: EventType) =>
  api.database.db
    .select()
    .from(events)
    .where(and(eq(events.clientId, clientId), type ? eq(events.type, type) : undefined));

async function subscribedClient(extra: Record<string, unknown> = {}) {
  const email = `${unique('nl')}@example.test`;
  const client = await newClient(api, admin, { email, newsletterConsent: true, ...extra });
  return { id: client.id as string, email };
}

describe('incoming webhook: authentication', () => {
  it("answers the validator's GET with 200, with the secret only", async () => {
    expectStatus(await api.call('GET', '/api/mailchimp/webhook', { query: { secret } }), 200);
    expectProblem(await api.call('GET', '/api/mailchimp/webhook'), 401);
    expectProblem(
      await api.call('GET', '/api/mailchimp/webhook', { query: { secret: 'x' + secret.slice(1) } }),
      401,
    );
  });

  it('refuses a missing or wrong secret and changes nothing', async () => {
    const { id, email } = await subscribedClient();
    const body = { type: 'unsubscribe', 'data[email]': email };
    expectProblem(await postForm(body, {}), 401);
    expectProblem(await postForm(body, { secret: `${secret}x` }), 401);
    expect((await clientRow(id)).newsletterConsent).toBe(true);
  });

  it('refuses every call while no secret is configured; the sync is off without its settings', async () => {
    // The app reads its settings at each call: switched off here for this test only.
    const config = api.config as {
      -readonly [K in keyof typeof api.config]: (typeof api.config)[K];
    };
    const saved = { ...config };
    try {
      config.MAILCHIMP_WEBHOOK_SECRET = undefined;
      for (const s of ['', 'undefined', secret]) {
        const res = await api.call('POST', '/api/mailchimp/webhook', {
          query: { secret: s },
          body: { type: 'unsubscribe', data: { email: 'a@example.test' } },
        });
        expectProblem(res, 401);
      }
      expectProblem(await api.call('GET', '/api/mailchimp/webhook', { query: { secret } }), 401);
      config.MAILCHIMP_API_KEY = undefined;
      expectProblem(
        await api.call('POST', '/api/admin/sync-mailchimp-list', { as: admin }),
        409,
        'mailing_list_not_configured',
      );
      const overview = await api.call('GET', '/api/admin/mailing-list', { as: admin });
      expectStatus(overview, 200);
      expect(overview.body.configured).toBe(false);
    } finally {
      Object.assign(config, saved);
    }
  });

  it('keeps form bodies away from every other operation', async () => {
    const res = await api.call('POST', '/api/admin/client', {
      as: admin,
      rawBody: form({ firstName: 'A', lastName: 'B' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectProblem(res, 415);
  });
});

describe('incoming webhook: the types', () => {
  it('unsubscribe (form-encoded) withdraws the consent once, with one business event', async () => {
    const { id, email } = await subscribedClient();
    const body = {
      type: 'unsubscribe',
      fired_at: '2009-03-26 21:40:57',
      'data[action]': 'unsub',
      'data[reason]': 'manual',
      'data[id]': '8a25ff1d98',
      'data[list_id]': LIST_ID,
      'data[email]': email.toUpperCase(),
      'data[email_type]': 'html',
      'data[merges][EMAIL]': email,
      'data[merges][FNAME]': 'Klara',
      'data[ip_opt]': '10.20.10.30',
    };
    const first = await postForm(body);
    expectStatus(first, 200);
    expect(first.body).toEqual({ received: true });
    expectStatus(await postForm(body), 200); // Mailchimp retries: the same again
    const row = await clientRow(id);
    expect(row.newsletterConsent).toBe(false);
    expect(row.mailingListStatus).toBe('unsubscribed');
    const recorded = await eventsOf(id, 'client.mailing_list_changed');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.changes).toMatchObject({
      newsletterConsent: { from: true, to: false },
      via: 'mailing_list_unsubscribe',
    });
  });

  it('unsubscribe as JSON works the same', async () => {
    const { id, email } = await subscribedClient();
    expectStatus(await postJson({ type: 'unsubscribe', data: { email, action: 'unsub' } }), 200);
    expect((await clientRow(id)).newsletterConsent).toBe(false);
  });

  it('cleaned sets the bounce flag (hard and abuse), idempotent, shown on the client', async () => {
    const hard = await subscribedClient();
    const abuse = await subscribedClient();
    const cleaned = (email: string, reason: string) =>
      postForm({
        type: 'cleaned',
        fired_at: '2009-03-26 22:01:00',
        'data[list_id]': LIST_ID,
        'data[campaign_id]': '4fjk2ma9xd',
        'data[reason]': reason,
        'data[email]': email,
      });
    expectStatus(await cleaned(hard.email, 'hard'), 200);
    expectStatus(await cleaned(abuse.email, 'abuse'), 200);
    const firstAt = (await clientRow(hard.id)).emailBouncedAt;
    expectStatus(await cleaned(hard.email, 'hard'), 200);
    const row = await clientRow(hard.id);
    expect(row).toMatchObject({
      mailingListStatus: 'cleaned',
      emailBounceReason: 'hard',
      emailBouncedAt: firstAt,
    });
    expect(await eventsOf(hard.id, 'client.email_bounced')).toHaveLength(1);
    expect((await clientRow(abuse.id)).emailBounceReason).toBe('abuse');
    const detail = await api.call('GET', `/api/admin/client/${hard.id}`, { as: admin });
    expectStatus(detail, 200);
    expect(detail.body).toMatchObject({ emailBounceReason: 'hard', mailingListStatus: 'cleaned' });
    expect(detail.body.emailBouncedAt).toBe(firstAt);
  });

  it('a staff edit keeps the bounce flag for the same address and drops it for a new one', async () => {
    const { id, email } = await subscribedClient();
    await postForm({ type: 'cleaned', 'data[reason]': 'hard', 'data[email]': email });
    const put = (body: Record<string, unknown>) =>
      api.call('PUT', `/api/admin/client/${id}`, { as: admin, body });
    expectStatus(await put({ email: email.toUpperCase(), notes: 'x' }), 200);
    expect((await clientRow(id)).emailBounceReason).toBe('hard');
    expectStatus(await put({ notes: 'y' }), 200);
    expect((await clientRow(id)).emailBounceReason).toBe('hard');
    const fixed = await put({ email: `${unique('fixed')}@example.test` });
    expectStatus(fixed, 200);
    expect(fixed.body).toMatchObject({ emailBouncedAt: null, emailBounceReason: null });
  });

  it('subscribe gives the consent; profile marks a member not known before', async () => {
    const plain = await newClient(api, admin, { email: `${unique('sub')}@example.test` });
    expectStatus(await postForm({ type: 'subscribe', 'data[email]': plain.email }), 200);
    expect(await clientRow(plain.id)).toMatchObject({
      newsletterConsent: true,
      mailingListStatus: 'subscribed',
    });
    const other = await newClient(api, admin, { email: `${unique('prof')}@example.test` });
    expectStatus(
      await postForm({ type: 'profile', 'data[email]': other.email, 'data[merges][FNAME]': 'Neu' }),
      200,
    );
    expectStatus(await postForm({ type: 'profile', 'data[email]': other.email }), 200);
    const row = await clientRow(other.id);
    expect(row).toMatchObject({
      mailingListStatus: 'subscribed',
      newsletterConsent: false,
      firstName: 'Klara',
    });
    expect(await eventsOf(other.id, 'client.mailing_list_changed')).toHaveLength(1);
  });

  it('upemail moves a client without a login to the new address and clears its bounce', async () => {
    const { id, email } = await subscribedClient();
    await postForm({ type: 'cleaned', 'data[reason]': 'hard', 'data[email]': email });
    const newEmail = `${unique('moved')}@example.test`;
    const body = {
      type: 'upemail',
      'data[list_id]': LIST_ID,
      'data[new_id]': '51da8c3259',
      'data[new_email]': newEmail,
      'data[old_email]': email,
    };
    expectStatus(await postForm(body), 200);
    expectStatus(await postForm(body), 200);
    expect(await clientRow(id)).toMatchObject({
      email: newEmail,
      emailBouncedAt: null,
      emailBounceReason: null,
    });
    const changed = await eventsOf(id, 'client.email_changed_by_mailing_list');
    expect(changed).toHaveLength(1);
    expect(changed[0]!.changes).toMatchObject({ email: { from: email, to: newEmail } });
  });

  it("upemail leaves a login's address, and an address another client holds, alone", async () => {
    const linked = await subscribedClient();
    const person = await api.signIn('NONE');
    await api.database.db
      .update(clients)
      .set({ userId: person.userId })
      .where(eq(clients.id, linked.id));
    expectStatus(
      await postForm({
        type: 'upemail',
        'data[old_email]': linked.email,
        'data[new_email]': `${unique('x')}@example.test`,
      }),
      200,
    );
    expect((await clientRow(linked.id)).email).toBe(linked.email);
    const a = await subscribedClient();
    const b = await subscribedClient();
    expectStatus(
      await postForm({ type: 'upemail', 'data[old_email]': a.email, 'data[new_email]': b.email }),
      200,
    );
    expect((await clientRow(a.id)).email).toBe(a.email);
    expect(
      await api.database.db.select().from(users).where(eq(users.id, person.userId)),
    ).toHaveLength(1);
  });

  it('each change the list makes sends one client.updated webhook, thin; a repeat sends none', async () => {
    const unsub = await subscribedClient();
    const cleaned = await subscribedClient();
    const moved = await subscribedClient();
    const profile = await newClient(api, admin, { email: `${unique('prof')}@example.test` });
    const sentBefore = await Promise.all(
      [unsub, cleaned, moved, profile].map((c) => updatesSent(c.id)),
    );
    expect(sentBefore.flat()).toEqual([]);
    const newEmail = `${unique('moved')}@example.test`;
    for (let round = 0; round < 2; round += 1) {
      expectStatus(await postForm({ type: 'unsubscribe', 'data[email]': unsub.email }), 200);
      expectStatus(
        await postForm({ type: 'cleaned', 'data[reason]': 'hard', 'data[email]': cleaned.email }),
        200,
      );
      expectStatus(
        await postForm({ type: 'profile', 'data[email]': profile.email as string }),
        200,
      );
      expectStatus(
        await postForm({
          type: 'upemail',
          'data[old_email]': moved.email,
          'data[new_email]': newEmail,
        }),
        200,
      );
    }
    for (const c of [unsub, cleaned, moved, profile]) {
      const sent = await updatesSent(c.id);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.type).toBe('client.updated');
      expect(Object.keys(sent[0]!.data).sort()).toEqual(['clientId', 'coachId']);
    }
    // Nothing of the address travels.
    const all = await api.database.db.select().from(webhookMessages);
    expect(all.some((m) => m.payload.includes('@'))).toBe(false);
  });

  it('an unknown address gets the same 200 and changes nothing; campaign is ignored', async () => {
    const before = (await api.database.db.select().from(events)).length;
    for (const type of ['unsubscribe', 'cleaned', 'subscribe', 'profile']) {
      const res = await postForm({
        type,
        'data[email]': `${unique('nobody')}@example.test`,
        'data[reason]': 'hard',
      });
      expectStatus(res, 200);
      expect(res.body).toEqual({ received: true });
    }
    expectStatus(
      await postForm({
        type: 'upemail',
        'data[old_email]': 'nobody@example.test',
        'data[new_email]': 'n2@example.test',
      }),
      200,
    );
    expectStatus(
      await postForm({ type: 'campaign', 'data[id]': '5aa2102003', 'data[subject]': 'Test' }),
      200,
    );
    expect((await api.database.db.select().from(events)).length).toBe(before);
  });

  it('bad input is a 400 naming the field', async () => {
    expectFieldError(await postForm({ 'data[email]': 'a@example.test' }), 'type');
    expectFieldError(await postForm({ type: 'unsubscribe' }), 'data');
    expectFieldError(
      await postForm({ type: 'unsubscribe', 'data[reason]': 'manual' }),
      'data.email',
    );
    expectFieldError(
      await postForm({ type: 'upemail', 'data[old_email]': 'a@example.test' }),
      'data.new_email',
    );
    expectFieldError(
      await postForm({ type: 'cleaned', 'data[email]': 'x'.repeat(300) }),
      'data.email',
    );
  });

  it('parses bracketed keys like qs, and nothing that reaches a prototype', () => {
    expect(
      parseBracketedForm(
        'type=cleaned&data[email]=a%40b.de&data[merges][FNAME]=A&data[__proto__][x]=1&a[b][c][d][e]=deep',
      ),
    ).toEqual({
      type: 'cleaned',
      data: { email: 'a@b.de', merges: { FNAME: 'A' } },
    });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('outgoing sync against a local fake', () => {
  it('upserts the consenting clients in batches, counts a failing member, keeps a result', async () => {
    // Clients of the tests above are in the list too; count on what is in the database.
    const extra = SYNC_BATCH + 3;
    for (let i = 0; i < extra; i += 1) await subscribedClient();
    const failing = await subscribedClient({ email: `${unique('invalid')}@example.test` });
    const bounced = await subscribedClient();
    await postForm({ type: 'cleaned', 'data[reason]': 'hard', 'data[email]': bounced.email });
    const noConsent = await newClient(api, admin, { email: `${unique('no')}@example.test` });
    // Already a member that unsubscribed at Mailchimp: stays so (status_if_new only).
    const known = await subscribedClient();
    const knownHash = createHash('md5').update(known.email.toLowerCase()).digest('hex');
    fake.members.set(knownHash, { email: known.email, status: 'unsubscribed', merge: {} });

    const syncable = await api.database.db.$count(clients, syncableClients);
    const statuses = async () =>
      new Map(
        (
          await api.database.db
            .select({ id: clients.id, status: clients.mailingListStatus })
            .from(clients)
        ).map((c) => [c.id, c.status]),
      );
    const allUpdates = async () =>
      (
        await api.database.db
          .select()
          .from(webhookMessages)
          .where(eq(webhookMessages.type, 'client.updated'))
      ).map((m) => ({
        id: m.id,
        clientId: (JSON.parse(m.payload) as { data: { clientId: string } }).data.clientId,
      }));
    const statusBefore = await statuses();
    const updatesBefore = await allUpdates();
    const started = await api.call('POST', '/api/admin/sync-mailchimp-list', { as: admin });
    expectStatus(started, 202);
    expect(started.body).toMatchObject({ status: 'queued', processed: 0 });
    expectProblem(
      await api.call('POST', '/api/admin/sync-mailchimp-list', { as: admin }),
      409,
      'sync_running',
    );
    const queued = await api.call('GET', '/api/admin/mailing-list', { as: admin });
    expect(queued.body.sync).toMatchObject({ id: started.body.id, status: 'queued' });

    fake.requests.length = 0;
    await api.app.jobs.runDue();
    const overview = await api.call('GET', '/api/admin/mailing-list', { as: admin });
    expectStatus(overview, 200);
    const sync = overview.body.sync;
    expect(sync).toMatchObject({
      id: started.body.id,
      status: 'done',
      total: syncable,
      processed: syncable,
      failed: 1,
      error: null,
    });
    expect(sync.added + sync.updated).toBe(syncable - 1);
    expect(sync.failures).toEqual([
      { clientId: failing.id, reason: expect.stringContaining('looks fake or invalid') },
    ]);
    expect(overview.body.configured).toBe(true);
    expect(overview.body.counts.bouncedHard).toBeGreaterThanOrEqual(1);

    const puts = fake.requests.filter((r) => r.method === 'PUT');
    expect(fake.requests[0]).toMatchObject({ method: 'GET' });
    expect(puts).toHaveLength(syncable);
    for (const put of puts) {
      const email = String(put.body!.email_address);
      expect(put.path.endsWith(createHash('md5').update(email.toLowerCase()).digest('hex'))).toBe(
        true,
      );
      expect(put.body).toMatchObject({
        status_if_new: 'subscribed',
        merge_fields: { FNAME: 'Klara' },
      });
      expect(put.body).not.toHaveProperty('status');
    }
    expect(puts.map((p) => p.body!.email_address)).not.toContain(bounced.email);
    expect(puts.map((p) => p.body!.email_address)).not.toContain(noConsent.email);
    expect((await clientRow(known.id)).mailingListStatus).toBe('unsubscribed');
    expect(fake.members.get(knownHash)!.status).toBe('unsubscribed');
    expect((await clientRow(failing.id)).mailingListStatus).toBeNull();

    // Each client whose stored status the sync changed gets one client.updated (thin); the
    // others none.
    const statusAfter = await statuses();
    const changedIds = [...statusAfter]
      .filter(([id, st]) => statusBefore.get(id) !== st)
      .map(([id]) => id);
    expect(changedIds).toContain(known.id);
    expect(changedIds.length).toBeGreaterThan(SYNC_BATCH);
    const seen = new Set(updatesBefore.map((m) => m.id));
    const sentBySync = (await allUpdates()).filter((m) => !seen.has(m.id));
    expect(sentBySync.map((m) => m.clientId).sort()).toEqual([...changedIds].sort());
    expect(await updatesSent(failing.id)).toEqual([]);

    // Again: every member is known now, so nobody is "added".
    expectStatus(await api.call('POST', '/api/admin/sync-mailchimp-list', { as: admin }), 202);
    await api.app.jobs.runDue();
    const again = (await api.call('GET', '/api/admin/mailing-list', { as: admin })).body.sync;
    expect(again).toMatchObject({ status: 'done', added: 0, updated: syncable - 1, failed: 1 });
    // Nothing changed the second time: no webhook.
    expect(await allUpdates()).toHaveLength(updatesBefore.length + sentBySync.length);
    const synced = await api.database.db
      .select()
      .from(events)
      .where(eq(events.type, 'mailing_list.synced'));
    expect(synced).toHaveLength(2);
  });
});
