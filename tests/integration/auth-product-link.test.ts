import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  authEmails,
  clients,
  events,
  users,
  webhookMessages,
  webhooks,
} from '../../server/db/schema/index';
import {
  createUserEvents,
  signWebhookBody,
  type AuthUserEvent,
} from '../../server/auth-provider/user-events';
import { verifyAuthEventSignature } from '../../server/features/auth-sync/signature';
import { createAuthTestApp, uniqueEmail, type AuthTestApp } from '../support/auth-client';
import { checkAgainstContract } from '../support/contract-validator';

// The product hears of created and deleted users and changed primary
// e-mails (in-process in the default set-up, a signed webhook when the provider runs alone),
// and POST /admin/sync-auth-emails repairs drift.

const SECRET = 'webhook-secret-0123456789-abcdefghijklmnop';
let t: AuthTestApp;
const violations: string[] = [];
beforeAll(async () => {
  t = await createAuthTestApp({
    env: { AUTH_PRODUCT_WEBHOOK_SECRET: SECRET },
    onResponse: (seen) => violations.push(...checkAgainstContract(seen)),
  });
  // A client.updated receiver is configured: each changed client record queues one message.
  await t.database.db
    .insert(webhooks)
    .values({ type: 'client.updated', url: 'https://receiver.example.test/hook', active: true });
});
afterAll(() => t.close());
afterEach(() => {
  expect(violations).toEqual([]);
});

const db = () => t.database.db;

async function api(method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, json: res.body ? JSON.parse(res.body) : undefined };
}

/** A person registered at the provider who signed in to the product once. */
async function person(prefix: string) {
  const email = uniqueEmail(prefix);
  const done = await t.register(email);
  const token = String(done.headers['x-auth-token']);
  const subject = done.payload!.user.id as string;
  const login = await api('POST', '/api/login', token);
  expect(login.status).toBe(200);
  return { email, token, subject, userId: login.json.userId as string };
}

async function clientOf(email: string) {
  const [row] = await db()
    .insert(clients)
    .values({ firstName: 'Erika', lastName: 'Muster', email, notes: 'Gesprächsnotiz' })
    .returning();
  return row!;
}

/** Every client.updated webhook queued so far (payload `data`). */
const updatesSent = async () =>
  (await db().select().from(webhookMessages).where(eq(webhookMessages.type, 'client.updated'))).map(
    (m) => (JSON.parse(m.payload) as { data: Record<string, unknown> }).data,
  );
const updatesOf = async (clientId: string) =>
  (await updatesSent()).filter((d) => d.clientId === clientId);

const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const clientRow = async (id: string) =>
  (await db().select().from(clients).where(eq(clients.id, id)))[0]!;

/** A second verified address of the person, made primary through the provider's REST call. */
async function switchPrimary(p: { token: string; subject: string }, address: string) {
  const added = await api('POST', '/auth/emails', p.token, { address });
  expect(added.status).toBe(200);
  // Verification by passcode is the profile flow's business (tested there).
  await db().update(authEmails).set({ verified: true }).where(eq(authEmails.id, added.json.id));
  const set = await api('POST', `/auth/emails/${added.json.id}/set_primary`, p.token);
  expect(set.status).toBe(204);
}

describe('in-process events (default set-up)', () => {
  it('a client changes the primary address: the user and the client record follow', async () => {
    const email = uniqueEmail('client');
    const client = await clientOf(email);
    const done = await t.register(email);
    const token = String(done.headers['x-auth-token']);
    const login = await api('POST', '/api/login', token);
    expect(login.json).toMatchObject({ role: 'NONE', active: true });
    const newAddress = uniqueEmail('client-new');

    await switchPrimary({ token, subject: done.payload!.user.id }, newAddress);

    expect((await userRow(login.json.userId)).email).toBe(newAddress);
    expect((await clientRow(client.id)).email).toBe(newAddress);
    // The client record changed: one thin client.updated, queued with the change.
    expect(await updatesOf(client.id)).toEqual([{ clientId: client.id, coachId: null }]);
    const [event] = await db()
      .select()
      .from(events)
      .where(and(eq(events.entityId, login.json.userId), eq(events.type, 'user.updated')))
      .orderBy(desc(events.occurredAt));
    expect(event?.changes).toMatchObject({
      email: { from: email, to: newAddress },
      via: 'auth_provider',
    });
  });

  it("the profile flow's email_set_primary also reaches the product", async () => {
    const p = await person('profile');
    const second = uniqueEmail('profile-second');
    const added = await api('POST', '/auth/emails', p.token, { address: second });
    await db().update(authEmails).set({ verified: true }).where(eq(authEmails.id, added.json.id));
    const bearer = { authorization: `Bearer ${p.token}` };
    const first = await t.post('/profile', undefined, bearer);
    const caps = first.actions.register_client_capabilities!;
    const init = await t.post(
      caps.href,
      { input_data: { webauthn_available: false }, csrf_token: first.csrf_token },
      bearer,
    );
    expect(init.name).toBe('profile_init');
    const setPrimary = init.actions.email_set_primary!;
    const after = await t.post(
      setPrimary.href,
      { input_data: { email_id: added.json.id }, csrf_token: init.csrf_token },
      bearer,
    );
    expect(after.status).toBe(200);
    expect((await userRow(p.userId)).email).toBe(second);
  });

  it('deleting the account deactivates the user; the client record and its data stay, unlinked', async () => {
    const email = uniqueEmail('leaving');
    const client = await clientOf(email);
    const done = await t.register(email);
    const token = String(done.headers['x-auth-token']);
    const login = await api('POST', '/api/login', token);
    expect((await clientRow(client.id)).userId).toBe(login.json.userId);

    expect(await updatesOf(client.id)).toEqual([]);
    expect((await api('DELETE', '/auth/user', token)).status).toBe(204);

    expect(await userRow(login.json.userId)).toMatchObject({ active: false });
    // Unlinked: the client record changed, one client.updated.
    expect(await updatesOf(client.id)).toEqual([{ clientId: client.id, coachId: null }]);
    expect(await clientRow(client.id)).toMatchObject({
      userId: null,
      email,
      firstName: 'Erika',
      notes: 'Gesprächsnotiz',
    });
    expect((await api('POST', '/api/login', token)).status).toBe(401);

    // A new account proving the address gets the client record back at its first login.
    const again = await t.register(email);
    const relogin = await api('POST', '/api/login', String(again.headers['x-auth-token']));
    expect(relogin.json).toMatchObject({ role: 'NONE', active: true });
    expect(relogin.json.userId).not.toBe(login.json.userId);
    expect((await clientRow(client.id)).userId).toBe(relogin.json.userId);
  });

  it('a deleted staff account leaves its row inactive and claimable by the next account', async () => {
    const p = await person('staff');
    await db().update(users).set({ role: 'COACH', active: true }).where(eq(users.id, p.userId));
    expect((await api('DELETE', '/auth/user', p.token)).status).toBe(204);
    expect(await userRow(p.userId)).toMatchObject({
      active: false,
      role: 'COACH',
      authSubject: null,
    });

    const again = await t.register(p.email);
    const relogin = await api('POST', '/api/login', String(again.headers['x-auth-token']));
    expect(relogin.json).toMatchObject({ userId: p.userId, role: 'COACH', active: false });
  });
});

describe('POST /admin/sync-auth-emails', () => {
  async function superadmin() {
    const p = await person('super');
    await db()
      .update(users)
      .set({ role: 'SUPERADMIN', active: true })
      .where(eq(users.id, p.userId));
    return p;
  }

  it('corrects drifted users and client records and counts them; a second run finds nothing', async () => {
    const admin = await superadmin();
    const email = uniqueEmail('drift');
    const client = await clientOf(email);
    const done = await t.register(email);
    const login = await api('POST', '/api/login', String(done.headers['x-auth-token']));
    // Drift: the product missed a change (e.g. the event failed).
    await db()
      .update(users)
      .set({ email: 'alt@example.org' })
      .where(eq(users.id, login.json.userId));
    await db().update(clients).set({ email: 'alt@example.org' }).where(eq(clients.id, client.id));
    // A user whose provider account is unknown here stays untouched, only counted.
    const orphanSubject = randomUUID();
    const [orphan] = await db()
      .insert(users)
      .values({
        authSubject: orphanSubject,
        email: 'orphan@example.org',
        role: 'NONE',
        active: false,
      })
      .returning();

    const sentBefore = (await updatesSent()).length;
    const res = await api('POST', '/api/admin/sync-auth-emails', admin.token);
    expect(res.status).toBe(200);
    // Only the corrected client record is announced.
    expect(await updatesOf(client.id)).toEqual([{ clientId: client.id, coachId: null }]);
    expect(await updatesSent()).toHaveLength(sentBefore + 1);
    expect(res.json.usersUpdated).toBe(1);
    expect(res.json.clientsUpdated).toBe(1);
    expect(res.json.missing).toBeGreaterThanOrEqual(1);
    expect(res.json.checked).toBeGreaterThanOrEqual(3);
    expect((await userRow(login.json.userId)).email).toBe(email);
    expect((await clientRow(client.id)).email).toBe(email);
    expect((await userRow(orphan!.id)).email).toBe('orphan@example.org');

    const again = await api('POST', '/api/admin/sync-auth-emails', admin.token);
    expect(again.json).toMatchObject({ usersUpdated: 0, clientsUpdated: 0 });
    expect(await updatesSent()).toHaveLength(sentBefore + 1);
  });

  it('is refused to anyone but a superadmin', async () => {
    const p = await person('admin');
    await db().update(users).set({ role: 'ADMIN', active: true }).where(eq(users.id, p.userId));
    expect((await api('POST', '/api/admin/sync-auth-emails', p.token)).status).toBe(403);
    expect((await api('POST', '/api/admin/sync-auth-emails')).status).toBe(401);
  });
});

describe('signed webhook (provider on its own)', () => {
  async function deliver(event: AuthUserEvent | Record<string, unknown>, signature?: string) {
    const body = JSON.stringify(event);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth-provider/events',
      headers: {
        'content-type': 'application/json',
        'x-auth-signature': signature ?? signWebhookBody(SECRET, body),
      },
      payload: body,
    });
    return { status: res.statusCode, json: res.body ? JSON.parse(res.body) : undefined };
  }

  const event = (
    subject: string,
    email: string | null,
    type: AuthUserEvent['type'] = 'user.email_changed',
  ) => ({
    id: randomUUID(),
    type,
    userId: subject,
    email,
    occurredAt: new Date().toISOString(),
  });

  it('a correctly signed e-mail change is applied', async () => {
    const p = await person('hook');
    const to = uniqueEmail('hook-new');
    const sentBefore = (await updatesSent()).length;
    expect((await deliver(event(p.subject, to))).status).toBe(204);
    expect((await userRow(p.userId)).email).toBe(to);
    // No client record behind this login: no client.updated.
    expect(await updatesSent()).toHaveLength(sentBefore);
  });

  it('a wrong or missing signature is 401 and changes nothing; so is a body changed after signing', async () => {
    const p = await person('forged');
    await db().update(users).set({ active: true }).where(eq(users.id, p.userId));
    const forged = event(p.subject, 'attacker@example.org');
    expect(
      (
        await deliver(
          forged,
          signWebhookBody('another-secret-0123456789-abcdefgh', JSON.stringify(forged)),
        )
      ).status,
    ).toBe(401);
    expect((await deliver(forged, '')).status).toBe(401);
    const signed = signWebhookBody(SECRET, JSON.stringify(event(p.subject, p.email)));
    expect((await deliver(forged, signed)).status).toBe(401);
    const deletion = event(p.subject, null, 'user.deleted');
    expect((await deliver(deletion, 'sha256=00')).status).toBe(401);
    expect(await userRow(p.userId)).toMatchObject({ email: p.email, active: true });
  });

  it('an old event (replay) is 400 naming occurredAt; a malformed one 400 naming the field', async () => {
    const p = await person('replay');
    const old = {
      ...event(p.subject, 'replayed@example.org'),
      occurredAt: new Date(Date.now() - 3600_000).toISOString(),
    };
    const res = await deliver(old);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain('occurredAt');
    const bad = await deliver({ ...event(p.subject, 'x@example.org'), type: 'user.renamed' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('type');
    expect((await userRow(p.userId)).email).toBe(p.email);
  });

  it('the provider signs what it posts and retries after a server error', async () => {
    const seen: Array<{ body: string; signature: unknown }> = [];
    let answers = [503, 204];
    const server: Server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ body, signature: req.headers['x-auth-signature'] });
        res.statusCode = answers.shift() ?? 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/auth-provider/events`;
      const errors: unknown[] = [];
      const emitter = createUserEvents({
        webhook: { url, secret: SECRET },
        retryDelaysMs: [10, 10],
      });
      emitter.setErrorLogger((e) => errors.push(e));
      const subject = randomUUID();
      await emitter.emit({ type: 'user.deleted', userId: subject, email: null });
      await emitter.settle();
      expect(seen).toHaveLength(2);
      expect(errors).toEqual([]);
      for (const { body, signature } of seen) {
        expect(verifyAuthEventSignature(SECRET, body, signature)).toBe(true);
        expect(JSON.parse(body)).toMatchObject({
          type: 'user.deleted',
          userId: subject,
          email: null,
        });
      }
      // A refusal (4xx) is not repeated, and is logged.
      answers = [401];
      await emitter.emit({ type: 'user.created', userId: subject, email: 'a@example.org' });
      await emitter.settle();
      expect(seen).toHaveLength(3);
      expect(errors).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("the provider's webhook reaches this product end to end", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const p = await person('e2e');
    const emitter = createUserEvents({
      webhook: { url: `http://127.0.0.1:${port}/api/auth-provider/events`, secret: SECRET },
      retryDelaysMs: [],
    });
    const errors: unknown[] = [];
    emitter.setErrorLogger((e) => errors.push(e));
    await emitter.emit({ type: 'user.deleted', userId: p.subject, email: null });
    await emitter.settle();
    expect(errors).toEqual([]);
    expect(await userRow(p.userId)).toMatchObject({ active: false });
  });
});
