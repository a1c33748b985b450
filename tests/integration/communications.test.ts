import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communications } from '../../server/db/schema/index';
import type { Api } from '../support/api';
import {
  expectProblem,
  expectStatus,
  newAppointment,
  newClient,
  SOME_ID,
  unique,
  type Caller,
  startApi,
} from './fixtures';
import { testClock } from './notifications-support';

const DAY = 24 * 60 * 60_000;
const clock = testClock();
let api: Api;
let admin: Caller;
let manager: Caller;
let coachA: Awaited<ReturnType<Api['signIn']>>;
let coachB: Awaited<ReturnType<Api['signIn']>>;
let clientOfA: { id: string; email: string };
let clientOfB: { id: string; email: string };
let appointmentOfA: { id: string };
let appointmentOfB: { id: string };

async function clientCoachedBy(coachId: string) {
  const u = unique('m');
  return newClient(api, admin, {
    email: `${u}@klient.example`,
    telephone: '+49 30 1234567',
    notifyViaSms: true,
    coachedById: coachId,
  });
}

beforeAll(async () => {
  ({
    api,
    callers: [admin, manager, coachA, coachB],
  } = await startApi({ jobs: { clock } }, 'ADMIN', 'ONBOARDING_MANAGER', 'COACH', 'COACH'));
  clientOfA = await clientCoachedBy(coachA.coachId!);
  clientOfB = await clientCoachedBy(coachB.coachId!);
  const start = new Date(clock.now() + 7 * DAY);
  start.setUTCHours(9, 0, 0, 0);
  appointmentOfA = await newAppointment(api, coachA, {
    clientId: clientOfA.id,
    coachId: coachA.coachId!,
    startDate: start.toISOString(),
  });
  appointmentOfB = await newAppointment(api, coachB, {
    clientId: clientOfB.id,
    coachId: coachB.coachId!,
    startDate: start.toISOString(),
  });
  await api.app.jobs.runDue();
});
afterAll(() => api?.close());

describe('GET /communications/appointment/{id}', () => {
  it('lists every message about the appointment with its delivery status, newest first', async () => {
    await api.call('DELETE', `/api/appointment/${appointmentOfA.id}`, { as: coachA });
    const res = await api.call('GET', `/api/communications/appointment/${appointmentOfA.id}`, {
      as: admin,
    });
    expectStatus(res, 200);
    const list = res.body.communications as Array<Record<string, unknown>>;
    expect(list).toHaveLength(6);
    // The cancellation (queued, not yet sent) comes first, the sent invitations after.
    expect(list.slice(0, 3).map((c) => [c.template, c.status])).toEqual([
      ['appointment_cancelled', 'queued'],
      ['appointment_cancelled', 'queued'],
      ['appointment_cancelled', 'queued'],
    ]);
    expect(
      list.slice(3).every((c) => c.template === 'appointment_booked' && c.status === 'sent'),
    ).toBe(true);
    expect(list.map((c) => c.channel).sort()).toEqual([
      'email',
      'email',
      'email',
      'email',
      'sms',
      'sms',
    ]);
    expect(
      list.every((c) => c.appointmentId === appointmentOfA.id && c.clientId === clientOfA.id),
    ).toBe(true);
    const createdAt = list.map((c) => Date.parse(String(c.createdAt)));
    expect([...createdAt].sort((a, b) => b - a)).toEqual(createdAt);
  });

  it('coaches see the appointments they hold, and 404 for others', async () => {
    expectStatus(
      await api.call('GET', `/api/communications/appointment/${appointmentOfA.id}`, { as: coachA }),
      200,
    );
    expectProblem(
      await api.call('GET', `/api/communications/appointment/${appointmentOfB.id}`, { as: coachA }),
      404,
      'not_found',
    );
    expectStatus(
      await api.call('GET', `/api/communications/appointment/${appointmentOfB.id}`, {
        as: manager,
      }),
      200,
    );
    expectProblem(
      await api.call('GET', `/api/communications/appointment/${SOME_ID}`, { as: admin }),
      404,
    );
  });
});

describe('GET /communications/client/{id}', () => {
  it('lists the messages of a client, never another client’s', async () => {
    const res = await api.call('GET', `/api/communications/client/${clientOfB.id}`, { as: admin });
    expectStatus(res, 200);
    const list = res.body.communications as Array<{ clientId: string; recipient: string }>;
    expect(list.length).toBe(3);
    expect(list.every((c) => c.clientId === clientOfB.id)).toBe(true);
    expect(list.map((c) => c.recipient)).toContain(clientOfB.email);
    expect(list.map((c) => c.recipient)).not.toContain(clientOfA.email);
  });

  it('coaches see only the clients they coach (404 otherwise); clients cannot list', async () => {
    const own = await api.call('GET', `/api/communications/client/${clientOfA.id}`, { as: coachA });
    expectStatus(own, 200);
    expect(own.body.communications.length).toBeGreaterThan(0);
    expectProblem(
      await api.call('GET', `/api/communications/client/${clientOfB.id}`, { as: coachA }),
      404,
      'not_found',
    );
    const client = await api.signIn('NONE');
    expectProblem(
      await api.call('GET', `/api/communications/client/${clientOfA.id}`, { as: client }),
      403,
    );
  });
});

describe('development mailbox', () => {
  it('shows appointment e-mails with their delivery status', async () => {
    const page = await api.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`An: ${clientOfB.email} · versendet`);
    expect(page.body).toContain(`An: ${clientOfA.email} · wartet auf Versand`);
  });

  it('offers the calendar file of an invitation as the attachment a calendar app would get', async () => {
    const page = await api.app.inject({ method: 'GET', url: '/dev/mailbox' });
    const links = [...page.body.matchAll(/href="(\/dev\/mailbox\/[0-9a-f-]{36}\/invite\.ics)"/g)];
    expect(links.length).toBeGreaterThan(0);
    const ics = await api.app.inject({ method: 'GET', url: links[0]![1]! });
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toContain('text/calendar');
    expect(ics.body).toContain('BEGIN:VCALENDAR');
    const method = /^METHOD:(REQUEST|CANCEL)\r?$/m.exec(ics.body)?.[1];
    expect(method).toBeDefined();
    expect(ics.headers['content-type']).toContain(`method=${method}`);
    const unknown = await api.app.inject({
      method: 'GET',
      url: `/dev/mailbox/${SOME_ID}/invite.ics`,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('GET /communications/failed', () => {
  it('lists the messages that could not be delivered, newest first, with their count; only for those who follow up', async () => {
    const listed = await api.call('GET', `/api/communications/client/${clientOfA.id}`, {
      as: admin,
    });
    expectStatus(listed, 200);
    const message = listed.body.communications[0];
    await api.database.db
      .update(communications)
      .set({ status: 'failed', error: '550 Postfach nicht vorhanden' })
      .where(eq(communications.id, message.id));

    const res = await api.call('GET', '/api/communications/failed?limit=100', { as: manager });
    expectStatus(res, 200);
    const ids = res.body.communications.map((c: { id: string }) => c.id);
    expect(ids).toContain(message.id);
    expect(res.body.itemCount).toBe(ids.length);
    expect(res.body.communications.every((c: { status: string }) => c.status === 'failed')).toBe(
      true,
    );
    const found = res.body.communications.find((c: { id: string }) => c.id === message.id);
    expect(found).toMatchObject({ clientId: clientOfA.id, error: '550 Postfach nicht vorhanden' });

    expectStatus(await api.call('GET', '/api/communications/failed', { as: coachA }), 403);
    expectProblem(await api.call('GET', '/api/communications/failed?limit=0', { as: admin }), 400);
  });
});
