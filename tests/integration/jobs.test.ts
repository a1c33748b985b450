import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appointments } from '../../server/db/schema/index';
import { RELEASE_HOLDS_JOB } from '../../server/features/appointments/index';
import { createApi, type Api } from '../support/api';
import { expectStatus, newAppointment, newClient, unique, type Caller } from './fixtures';
import { DELIVER_JOB, messagesOf, testClock } from './notifications-support';

const HOUR = 60 * 60_000;

/** A fake SMS provider on 127.0.0.1: answers each request with the next scripted status. */
async function fakeSmsProvider() {
  const received: {
    authorization: string | undefined;
    body: { from: string; to: string; text: string };
  }[] = [];
  const script: number[] = [];
  const read = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return JSON.parse(text);
  };
  const server: Server = createServer((req, res) => {
    void read(req).then((body) => {
      received.push({ authorization: req.headers.authorization, body });
      const status = script.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status < 300 ? JSON.stringify({ id: `sms-${received.length}` }) : '{"error":"busy"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/messages`,
    received,
    /** Statuses for the next requests, in order; 200 after the script runs out. */
    answer: (...statuses: number[]) => script.push(...statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const clock = testClock();
let sms: Awaited<ReturnType<typeof fakeSmsProvider>>;
let api: Api;
let admin: Caller;
let coach: Awaited<ReturnType<Api['signIn']>>;

beforeAll(async () => {
  sms = await fakeSmsProvider();
  api = await createApi({
    env: {
      SMS_URL: sms.url,
      SMS_TOKEN: 'test-sms-token',
      JOBS_RETRY_LIMIT: '2',
      JOBS_RETRY_DELAY_SECONDS: '30',
    },
    jobs: { clock },
  });
  admin = await api.signIn('ADMIN');
  coach = await api.signIn('COACH');
});
afterAll(async () => {
  await api?.close();
  await sms?.close();
});

let booked = 0;
async function bookWithSms() {
  const u = unique('j');
  const client = await newClient(api, admin, {
    email: `${u}@klient.example`,
    telephone: '0151 2345678',
    notifyViaSms: true,
    coachedById: coach.coachId,
  });
  const start = new Date(clock.now() + (10 + booked++) * 24 * HOUR);
  start.setUTCHours(9, 0, 0, 0);
  const a = await newAppointment(api, coach, {
    clientId: client.id,
    coachId: coach.coachId!,
    startDate: start.toISOString(),
  });
  return { client, a };
}

const smsOf = async (appointmentId: string) =>
  (await messagesOf(api, appointmentId)).find((m) => m.channel === 'sms')!;

describe('SMS through the provider over HTTP', () => {
  it('posts {from, to, text} with the bearer token and keeps the provider id', async () => {
    const { a } = await bookWithSms();
    const before = sms.received.length;
    await api.app.jobs.runDue();
    expect(sms.received.length).toBe(before + 1);
    const request = sms.received.at(-1)!;
    expect(request.authorization).toBe('Bearer test-sms-token');
    expect(request.body.from).toBe('Sprechstunde');
    expect(request.body.to).toBe('0151 2345678');
    expect(request.body.text).toContain(a.meetingCodeClient);
    const message = await smsOf(a.id);
    expect(message).toMatchObject({ status: 'sent', attempts: 1, error: null });
    expect(message.providerMessageId).toBe(`sms-${sms.received.length}`);
  });
});

describe('retries', () => {
  it('retries a failed send with growing delays and delivers when the provider recovers', async () => {
    const { a } = await bookWithSms();
    sms.answer(503, 503);
    await api.app.jobs.runDue();
    let message = await smsOf(a.id);
    expect(message).toMatchObject({ status: 'queued', attempts: 1 });
    expect(message.error).toContain('503');

    // Not due again at once: the retry waits (backoff from 30 s).
    expect(await api.app.jobs.runDue()).toBe(0);
    const [job] = await api.app.jobs.waiting(DELIVER_JOB, { communicationId: message.id });
    expect(job!.state).toBe('retry');
    const firstDelay = job!.startAfter.getTime() - clock.now();
    expect(firstDelay).toBeGreaterThanOrEqual(25_000);

    await clock.setTime(job!.startAfter.getTime() + 1000);
    await api.app.jobs.runDue();
    message = await smsOf(a.id);
    expect(message).toMatchObject({ status: 'queued', attempts: 2 });
    const [second] = await api.app.jobs.waiting(DELIVER_JOB, { communicationId: message.id });
    const secondDelay = second!.startAfter.getTime() - clock.now();
    expect(secondDelay).toBeGreaterThan(firstDelay);

    await clock.setTime(second!.startAfter.getTime() + 1000);
    await api.app.jobs.runDue();
    message = await smsOf(a.id);
    expect(message).toMatchObject({ status: 'sent', attempts: 3, error: null });
  });

  it('shows the message as failed after the last try and stops trying', async () => {
    const { a } = await bookWithSms();
    sms.answer(500, 500, 500, 500);
    for (let i = 0; i < 3; i++) {
      await api.app.jobs.runDue();
      const [job] = await api.app.jobs.waiting(DELIVER_JOB, {
        communicationId: (await smsOf(a.id)).id,
      });
      if (job) await clock.setTime(job.startAfter.getTime() + 1000);
    }
    const message = await smsOf(a.id);
    expect(message).toMatchObject({ status: 'failed', attempts: 3 });
    expect(message.error).toContain('500');
    expect(await api.app.jobs.waiting(DELIVER_JOB, { communicationId: message.id })).toEqual([]);

    // The failure is visible to staff in the communications list.
    const res = await api.call('GET', `/api/communications/appointment/${a.id}`, { as: admin });
    expectStatus(res, 200);
    const listed = res.body.communications.find((c: { id: string }) => c.id === message.id);
    expect(listed).toMatchObject({ status: 'failed', attempts: 3, sentAt: null });
    // The e-mails of the same booking went out regardless.
    const mails = (await messagesOf(api, a.id)).filter((m) => m.channel === 'email');
    expect(mails.map((m) => m.status)).toEqual(['sent', 'sent']);
    sms.answer();
  });
});

describe('periodic jobs', () => {
  it('schedules the release of expired provisional holds every minute', async () => {
    expect(await api.app.jobs.schedules()).toContainEqual({
      name: RELEASE_HOLDS_JOB,
      cron: '* * * * *',
    });
  });

  it('the release job cancels a hold whose time has run out, without messages', async () => {
    const u = unique('h');
    const client = await newClient(api, admin, {
      email: `${u}@klient.example`,
      coachedById: coach.coachId,
    });
    const start = new Date(clock.now() + 20 * 24 * HOUR);
    start.setUTCHours(11, 0, 0, 0);
    const hold = await newAppointment(api, coach, {
      clientId: client.id,
      coachId: coach.coachId!,
      startDate: start.toISOString(),
      isProvisional: true,
    });
    await api.database.db
      .update(appointments)
      .set({ provisionalUntil: new Date(clock.now() - 60_000).toISOString() })
      .where(eq(appointments.id, hold.id));
    await api.app.jobs.send(api.database.db, RELEASE_HOLDS_JOB, {});
    await api.app.jobs.runDue();
    const [row] = await api.database.db
      .select({ cancelledAt: appointments.cancelledAt })
      .from(appointments)
      .where(eq(appointments.id, hold.id));
    expect(row!.cancelledAt).not.toBeNull();
    expect(await messagesOf(api, hold.id)).toEqual([]);
  });
});
