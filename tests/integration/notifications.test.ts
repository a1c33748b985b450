import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { communications } from '../../server/db/schema/index';
import { insertAppointment } from '../../server/features/appointments/booking';
import { enqueueAppointmentNotifications } from '../../server/features/notifications/enqueue';
import type { Api } from '../support/api';
import {
  expectFieldError,
  expectProblem,
  expectStatus,
  newAppointment,
  newClient,
  plusMinutes,
  unique,
  type Caller,
  startApi,
} from './fixtures';
import { clients } from '../../server/db/schema/index';
import { appointmentIcs } from '../../src/lib/client-slots';
import { coachWithAvailability, signInClient } from './scheduling-support';
import {
  DELIVER_JOB,
  messagesOf,
  parseInvite,
  REMINDER_JOB,
  testClock,
  urlOf,
} from './notifications-support';

const HOUR = 60 * 60_000;
const clock = testClock();
let api: Api;
let admin: Caller;
let coach: Caller & { coachId: string | null; email: string };
let otherCoach: Caller;

/** A client with e-mail and phone who wants SMS (the default). */
async function smsClient(extra: Record<string, unknown> = {}) {
  const u = unique('n');
  return newClient(api, admin, {
    email: `${u}@klient.example`,
    telephone: '+49 151 2345678',
    // The booking coach's own client: coaches book only the clients they coach.
    coachedById: coach.coachId,
    notifyViaSms: true,
    ...extra,
  });
}

/** An instant `days` after the queue clock's now, on the hour. */
function daysAhead(days: number, hourUtc = 9) {
  const d = new Date(clock.now() + days * 24 * HOUR);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
}

async function book(clientId: string, startDate: string, extra: Record<string, unknown> = {}) {
  return newAppointment(api, coach, {
    clientId,
    coachId: coach.coachId!,
    startDate,
    appointmentType: 'initial',
    ...extra,
  });
}

const waitingReminders = (appointmentId: string) =>
  api.app.jobs.waiting<{ kind: string }>(REMINDER_JOB, { appointmentId });

beforeAll(async () => {
  ({
    api,
    callers: [admin, coach, otherCoach],
  } = await startApi({ jobs: { clock } }, 'ADMIN', 'COACH', 'COACH'));
});
afterAll(() => api?.close());

describe('invitations on booking', () => {
  it('queues German e-mails with an iCalendar REQUEST to client and coach, an SMS, and two reminders; the worker sends them', async () => {
    const client = await smsClient({ firstName: 'Klara', lastName: 'Klientin' });
    // Monday 2 December 2030, 09:00 UTC = 10:00 in Berlin (winter time).
    const a = await book(client.id, '2030-12-02T09:00:00.000Z');

    const queued = await messagesOf(api, a.id);
    expect(queued.map((m) => [m.channel, m.recipient, m.status])).toEqual(
      expect.arrayContaining([
        ['email', client.email, 'queued'],
        ['sms', '+49 151 2345678', 'queued'],
        ['email', coach.email, 'queued'],
      ]),
    );
    expect(queued).toHaveLength(3);

    const reminders = await waitingReminders(a.id);
    expect(reminders.map((r) => [r.data.kind, r.startAfter.toISOString()]).sort()).toEqual([
      ['reminder_1h', '2030-12-02T08:00:00.000Z'],
      ['reminder_24h', '2030-12-01T09:00:00.000Z'],
    ]);

    expect(await api.app.jobs.runDue()).toBeGreaterThanOrEqual(3);
    const sent = await messagesOf(api, a.id);
    expect(sent.map((m) => [m.status, m.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ]);

    const toClient = sent.find((m) => m.channel === 'email' && m.recipient === client.email)!;
    expect(toClient.template).toBe('appointment_booked');
    expect(toClient.subject).toBe('Ihr Termin am Montag, 2. Dezember 2030, 10:00 Uhr');
    expect(toClient.body).toContain('Guten Tag Klara Klientin,');
    const link = `http://localhost:3000/meeting/${a.meetingCodeClient}`;
    expect(toClient.body).toContain(link);
    expect(toClient.body).toContain(a.meetingCodeClient);
    expect(toClient.body).not.toContain(a.meetingCodeCoach);
    // The cancel page of client self-service, reachable without signing in.
    expect(toClient.body).toContain(
      `Termin absagen: http://localhost:3000/client-signup/cancel-appointment/${a.meetingCodeClient}`,
    );

    expect(toClient.body).toContain(
      `Termin verschieben: http://localhost:3000/client-signup/reschedule-appointment/${a.id}`,
    );

    const invite = parseInvite(toClient.calendar!);
    // The booking page's download describes the same event: importing both gives one entry.
    const downloaded = parseInvite(
      appointmentIcs({ ...a, coach: { id: 'c', firstName: 'C', lastName: 'C' } } as never, {
        origin: 'http://localhost:3000',
        summary: 'Erstgespräch',
        now: Date.now(),
      }),
    );
    expect(downloaded.event.uid).toBe(invite.event.uid);
    expect(invite.method).toBe('REQUEST');
    expect(invite.event.uid).toBe(`appointment-${a.id}@localhost`);
    expect(Number(invite.event.sequence)).toBe(0);
    expect(new Date(invite.event.start).toISOString()).toBe('2030-12-02T09:00:00.000Z');
    expect(new Date(invite.event.end!).toISOString()).toBe('2030-12-02T09:30:00.000Z');
    expect(urlOf(invite.event)).toBe(link);
    expect(String(invite.event.description)).toContain(link);
    expect(JSON.stringify(invite.event.organizer)).toContain('no-reply@sprechstunde.invalid');

    const toCoach = sent.find((m) => m.recipient === coach.email)!;
    const coachInvite = parseInvite(toCoach.calendar!);
    expect(coachInvite.event.uid).toBe(invite.event.uid);
    expect(urlOf(coachInvite.event)).toBe(
      `http://localhost:3000/coach/meeting/${a.meetingCodeCoach}`,
    );
    expect(toCoach.body).not.toContain(a.meetingCodeClient);

    const sms = sent.find((m) => m.channel === 'sms')!;
    expect(sms.body).toBe(
      `Sprechstunde: Ihr Termin (Erstgespräch) am Mo., 02.12.2030, 10:00 Uhr ist gebucht. Videotermin: ${link}`,
    );
  });

  it('writes summer dates in Berlin summer time', async () => {
    const client = await smsClient();
    const a = await book(client.id, '2030-06-03T08:00:00.000Z');
    const [mail] = (await messagesOf(api, a.id)).filter((m) => m.recipient === client.email);
    expect(mail!.subject).toBe('Ihr Termin am Montag, 3. Juni 2030, 10:00 Uhr');
  });

  it('sends no SMS to a client who does not want them', async () => {
    const client = await smsClient({ notifyViaSms: false });
    const a = await book(client.id, daysAhead(12));
    const messages = await messagesOf(api, a.id);
    expect(messages.map((m) => m.channel).sort()).toEqual(['email', 'email']);
  });

  it('sends nothing for a provisional hold until it is confirmed', async () => {
    const client = await smsClient();
    const a = await book(client.id, daysAhead(13), { isProvisional: true });
    expect(await messagesOf(api, a.id)).toEqual([]);
    expect(await waitingReminders(a.id)).toEqual([]);

    const res = await api.call('PUT', `/api/appointment/${a.id}`, {
      as: coach,
      body: { isProvisional: false },
    });
    expectStatus(res, 200);
    const messages = await messagesOf(api, a.id);
    expect(messages.map((m) => m.template)).toEqual([
      'appointment_booked',
      'appointment_booked',
      'appointment_booked',
    ]);
    expect(await waitingReminders(a.id)).toHaveLength(2);
  });

  it('a booking that rolls back leaves no message and no job', async () => {
    const client = await smsClient();
    const deliveriesBefore = (await api.app.jobs.all(DELIVER_JOB)).length;
    const remindersBefore = (await api.app.jobs.all(REMINDER_JOB)).length;
    let appointmentId = '';
    await expect(
      api.database.db.transaction(async (tx) => {
        ({ id: appointmentId } = await insertAppointment(tx, {
          clientId: client.id,
          coachId: coach.coachId!,
          startDate: daysAhead(14),
          endDate: plusMinutes(daysAhead(14), 30),
          appointmentType: 'initial',
        }));
        await enqueueAppointmentNotifications(
          tx,
          { config: api.config, jobs: api.app.jobs },
          { appointmentId, change: 'booked' },
        );
        // Inside the transaction the messages and jobs exist…
        const inside = await tx
          .select()
          .from(communications)
          .where(eq(communications.appointmentId, appointmentId));
        expect(inside).toHaveLength(3);
        throw new Error('booking failed late');
      }),
    ).rejects.toThrow('booking failed late');
    // …and after the rollback nothing is left to send.
    expect(await messagesOf(api, appointmentId)).toEqual([]);
    expect(await api.app.jobs.all(DELIVER_JOB)).toHaveLength(deliveriesBefore);
    expect(await api.app.jobs.all(REMINDER_JOB)).toHaveLength(remindersBefore);
    expect(await api.app.jobs.all(REMINDER_JOB, { appointmentId })).toEqual([]);
  });
});

describe('reschedule and cancellation', () => {
  it('a reschedule sends updated invitations with a raised SEQUENCE and moves the reminders', async () => {
    const client = await smsClient();
    const start = daysAhead(20);
    const a = await book(client.id, start);
    await api.app.jobs.runDue();

    const moved = daysAhead(21, 14);
    // A move must land in the coach's availability.
    expectStatus(
      await api.call('POST', '/api/availability', {
        as: coach,
        body: {
          coachId: coach.coachId,
          startDay: moved.slice(0, 10),
          startTime: '08:00',
          endTime: '18:00',
        },
      }),
      201,
    );
    const res = await api.call('PUT', `/api/appointment/${a.id}`, {
      as: coach,
      body: { startDate: moved, endDate: plusMinutes(moved, 30) },
    });
    expectStatus(res, 200);
    const rescheduled = (await messagesOf(api, a.id)).filter(
      (m) => m.template === 'appointment_rescheduled',
    );
    expect(rescheduled.map((m) => m.recipient).sort()).toEqual(
      [client.email, coach.email, '+49 151 2345678'].sort(),
    );
    const mail = rescheduled.find((m) => m.recipient === client.email)!;
    expect(mail.body).toContain('Bisher:');
    expect(mail.body).toContain('Neu:');
    const invite = parseInvite(mail.calendar!);
    expect(invite.method).toBe('REQUEST');
    expect(invite.event.uid).toBe(`appointment-${a.id}@localhost`);
    expect(Number(invite.event.sequence)).toBe(1);
    expect(new Date(invite.event.start).toISOString()).toBe(moved);

    const reminders = await waitingReminders(a.id);
    expect(reminders.map((r) => r.startAfter.toISOString()).sort()).toEqual(
      [
        new Date(Date.parse(moved) - 24 * HOUR).toISOString(),
        new Date(Date.parse(moved) - HOUR).toISOString(),
      ].sort(),
    );

    // A change that does not move the appointment sends nothing.
    const before = (await messagesOf(api, a.id)).length;
    expectStatus(
      await api.call('PUT', `/api/appointment/${a.id}`, { as: coach, body: { noShow: false } }),
      200,
    );
    expect(await messagesOf(api, a.id)).toHaveLength(before);
  });

  it('a cancellation sends METHOD:CANCEL and stops the reminders, even when their time comes', async () => {
    const client = await smsClient();
    const start = daysAhead(25);
    const a = await book(client.id, start);
    await api.app.jobs.runDue();
    expect(await waitingReminders(a.id)).toHaveLength(2);

    expectStatus(await api.call('DELETE', `/api/appointment/${a.id}`, { as: coach }), 200);
    expect(await waitingReminders(a.id)).toEqual([]);
    const cancellation = (await messagesOf(api, a.id)).filter(
      (m) => m.template === 'appointment_cancelled',
    );
    expect(cancellation).toHaveLength(3);
    const invite = parseInvite(cancellation.find((m) => m.recipient === client.email)!.calendar!);
    expect(invite.method).toBe('CANCEL');
    expect(invite.event.status).toBe('CANCELLED');
    expect(Number(invite.event.sequence)).toBe(1);
    expect(invite.event.uid).toBe(`appointment-${a.id}@localhost`);

    await clock.setTime(new Date(Date.parse(start) - HOUR / 2));
    await api.app.jobs.runDue();
    const all = await messagesOf(api, a.id);
    expect(all.filter((m) => m.template.startsWith('appointment_reminder'))).toEqual([]);
    expect(all.every((m) => m.status === 'sent')).toBe(true);
  });
});

describe('reminders', () => {
  it('reminds the client 24 h and 1 h before by e-mail and SMS, not the coach', async () => {
    const client = await smsClient();
    const start = daysAhead(3, 10);
    const a = await book(client.id, start);
    await api.app.jobs.runDue();
    const reminders = () =>
      messagesOf(api, a.id).then((all) => all.filter((m) => m.template.includes('reminder')));

    await clock.setTime(new Date(Date.parse(start) - 25 * HOUR));
    await api.app.jobs.runDue();
    expect(await reminders()).toEqual([]);

    await clock.setTime(new Date(Date.parse(start) - 24 * HOUR + 60_000));
    await api.app.jobs.runDue();
    const day = await reminders();
    expect(day.map((m) => [m.template, m.channel, m.recipient, m.status]).sort()).toEqual(
      [
        ['appointment_reminder_24h', 'email', client.email, 'sent'],
        ['appointment_reminder_24h', 'sms', '+49 151 2345678', 'sent'],
      ].sort(),
    );
    expect(day.find((m) => m.channel === 'email')!.subject).toMatch(/^Erinnerung: Ihr Termin am /);

    await clock.setTime(new Date(Date.parse(start) - HOUR + 60_000));
    await api.app.jobs.runDue();
    const hour = (await reminders()).filter((m) => m.template === 'appointment_reminder_1h');
    expect(hour).toHaveLength(2);
    expect(hour.find((m) => m.channel === 'email')!.body).toContain('beginnt in einer Stunde');
  });

  it('plans the reminders 24 h and 1 h before across the October change (Sunday 10:00 CET)', async () => {
    const client = await smsClient();
    // Sunday 27 October 2030, 10:00 in Berlin: winter time again since 03:00 summer time.
    const a = await book(client.id, '2030-10-27T09:00:00.000Z');
    const reminders = await waitingReminders(a.id);
    expect(reminders.map((r) => [r.data.kind, r.startAfter.toISOString()]).sort()).toEqual([
      ['reminder_1h', '2030-10-27T08:00:00.000Z'],
      // Saturday 11:00 summer time: 24 hours before, not Saturday 10:00.
      ['reminder_24h', '2030-10-26T09:00:00.000Z'],
    ]);
  });

  it('books close to the start without the reminder whose time has passed', async () => {
    const client = await smsClient();
    const start = new Date(clock.now() + 5 * HOUR).toISOString();
    const a = await book(client.id, start);
    const kinds = (await waitingReminders(a.id)).map((r) => r.data.kind);
    expect(kinds).toEqual(['reminder_1h']);
  });
});

describe('resendAppointmentInvites', () => {
  it('sends the current invitation again with the given meeting link (202)', async () => {
    const client = await smsClient();
    const a = await book(client.id, daysAhead(30));
    const res = await api.call('POST', `/api/appointment/${a.id}/resendInvites`, {
      as: coach,
      body: { meetingBaseUrl: 'http://localhost:3000/termin/' },
    });
    expectStatus(res, 202);
    expect(res.body).toEqual({ queued: true });
    const resent = (await messagesOf(api, a.id)).filter(
      (m) => m.template === 'appointment_invitation',
    );
    expect(resent).toHaveLength(3);
    const mail = resent.find((m) => m.recipient === client.email)!;
    const link = `http://localhost:3000/termin/${a.meetingCodeClient}`;
    expect(mail.body).toContain(link);
    const invite = parseInvite(mail.calendar!);
    expect(urlOf(invite.event)).toBe(link);
    expect(Number(invite.event.sequence)).toBe(0);
    await api.app.jobs.runDue();
    expect((await messagesOf(api, a.id)).every((m) => m.status === 'sent')).toBe(true);
  });

  it('refuses a meeting link to another site (400 naming meetingBaseUrl), sending nothing', async () => {
    const client = await smsClient();
    const a = await book(client.id, daysAhead(31));
    const before = (await messagesOf(api, a.id)).length;
    const res = await api.call('POST', `/api/appointment/${a.id}/resendInvites`, {
      as: coach,
      body: { meetingBaseUrl: 'https://evil.example/meeting' },
    });
    expectFieldError(res, 'meetingBaseUrl');
    expect(res.body.errors[0].code).toBe('meeting_base_url_not_allowed');
    expect(await messagesOf(api, a.id)).toHaveLength(before);
  });

  it('answers 409 for a cancelled appointment and 404 to another coach', async () => {
    const client = await smsClient();
    const a = await book(client.id, daysAhead(32));
    const body = { meetingBaseUrl: 'http://localhost:3000/meeting' };
    expectProblem(
      await api.call('POST', `/api/appointment/${a.id}/resendInvites`, { as: otherCoach, body }),
      404,
    );
    await api.call('DELETE', `/api/appointment/${a.id}`, { as: coach });
    expectProblem(
      await api.call('POST', `/api/appointment/${a.id}/resendInvites`, { as: admin, body }),
      409,
      'appointment_cancelled',
    );
  });
});

describe('resendAppointmentInvites after the end', () => {
  it('answers 409 appointment_ended for an appointment that is over, sending nothing; under way it still sends', async () => {
    const client = await smsClient();
    const body = { meetingBaseUrl: 'http://localhost:3000/meeting' };
    // The API's clock is the real one (the queue clock above may have moved on).
    const over = await book(client.id, new Date(Date.now() - 48 * HOUR).toISOString());
    const before = (await messagesOf(api, over.id)).length;
    expectProblem(
      await api.call('POST', `/api/appointment/${over.id}/resendInvites`, { as: coach, body }),
      409,
      'appointment_ended',
    );
    expect(await messagesOf(api, over.id)).toHaveLength(before);

    const underway = await book(client.id, new Date(Date.now() - 10 * 60_000).toISOString());
    expectStatus(
      await api.call('POST', `/api/appointment/${underway.id}/resendInvites`, { as: coach, body }),
      202,
    );
  });
});

describe('a reschedule that changes the coach', () => {
  const onlyTo = async (appointmentId: string, recipient: string, since: number) => {
    const got = (await messagesOf(api, appointmentId))
      .slice(since)
      .filter((m) => m.recipient === recipient);
    expect(got, recipient).toHaveLength(1);
    return got[0]!;
  };

  it('by the client: the previous coach gets the CANCEL, the new coach the REQUEST, the client the new coach', async () => {
    // Wednesday 11 December 2030, Berlin winter time (UTC+1): Anna is free 10–11, Bert 12–13.
    const day = { startDay: '2030-12-11' };
    const { coach: anna } = await coachWithAvailability(
      api,
      admin,
      { ...day, startTime: '10:00', endTime: '11:00' },
      { firstName: 'Anna', lastName: 'Alt' },
    );
    const { coach: bert } = await coachWithAvailability(
      api,
      admin,
      { ...day, startTime: '12:00', endTime: '13:00' },
      { firstName: 'Bert', lastName: 'Neu' },
    );
    const client = await signInClient(api);
    const email = `${unique('c')}@klient.example`;
    await api.database.db
      .update(clients)
      .set({ email, telephone: '+49 170 7654321', notifyViaSms: true })
      .where(eq(clients.id, client.clientId));
    const booked = await api.call('POST', '/api/client/book_initial_appointment', {
      as: client,
      body: { startDate: '2030-12-11T09:00:00.000Z' },
    });
    expectStatus(booked, 201);
    expect(booked.body.coach.id).toBe(anna.id);
    const id = booked.body.id as string;
    const since = (await messagesOf(api, id)).length;

    const moved = await api.call('PUT', `/api/client/initial_appointment/${id}`, {
      as: client,
      body: { startDate: '2030-12-11T11:00:00.000Z', coachId: bert.id },
    });
    expectStatus(moved, 200);
    expect(moved.body.coach).toMatchObject({ id: bert.id, firstName: 'Bert', lastName: 'Neu' });

    const toAnna = await onlyTo(id, anna.email, since);
    expect(toAnna).toMatchObject({ template: 'appointment_handed_over', calendarMethod: 'CANCEL' });
    expect(toAnna.subject).toMatch(/^Abgegeben: .* am Mittwoch, 11\. Dezember 2030, 10:00 Uhr$/);
    expect(toAnna.body).toContain('an Bert Neu übergeben');
    const cancel = parseInvite(toAnna.calendar!);
    expect(cancel.method).toBe('CANCEL');
    expect(cancel.event.uid).toBe(`appointment-${id}@localhost`);
    expect(Number(cancel.event.sequence)).toBe(1);
    expect(new Date(cancel.event.start).toISOString()).toBe('2030-12-11T09:00:00.000Z');

    const toBert = await onlyTo(id, bert.email, since);
    expect(toBert).toMatchObject({ template: 'appointment_taken_over', calendarMethod: 'REQUEST' });
    expect(toBert.subject).toMatch(/^Neuer Termin: /);
    expect(toBert.body).toContain('von Anna Alt');
    const invite = parseInvite(toBert.calendar!);
    expect(invite.method).toBe('REQUEST');
    expect(Number(invite.event.sequence)).toBe(1);
    expect(new Date(invite.event.start).toISOString()).toBe('2030-12-11T11:00:00.000Z');

    const toClient = (await messagesOf(api, id))
      .slice(since)
      .filter((m) => m.recipient === email || m.recipient === '+49 170 7654321');
    expect(toClient.map((m) => m.template)).toEqual([
      'appointment_rescheduled',
      'appointment_rescheduled',
    ]);
    const mail = toClient.find((m) => m.channel === 'email')!;
    expect(mail.body).toContain('Ihr Coach ist jetzt Bert Neu (bisher Anna Alt).');
    const unfolded = mail.calendar!.replace(/\r\n[ \t]/g, '').toLowerCase(); // RFC 5545 folds long lines
    expect(unfolded).toContain(`mailto:${bert.email}`);
    expect(unfolded).not.toContain(anna.email);
    expect(toClient.find((m) => m.channel === 'sms')!.body).toContain('neu mit Bert Neu');
  });

  it('by staff: a handover at the same time tells the client the new coach, not a move', async () => {
    const client = await smsClient();
    const start = daysAhead(40);
    const a = await book(client.id, start);
    const { coach: next } = await coachWithAvailability(api, admin, {
      startDay: start.slice(0, 10),
      startTime: '08:00',
      endTime: '18:00',
    });
    const since = (await messagesOf(api, a.id)).length;
    expectStatus(
      await api.call('PUT', `/api/appointment/${a.id}`, { as: admin, body: { coachId: next.id } }),
      200,
    );
    const toOld = await onlyTo(a.id, coach.email, since);
    expect(toOld.template).toBe('appointment_handed_over');
    expect(parseInvite(toOld.calendar!).method).toBe('CANCEL');
    const toNew = await onlyTo(a.id, next.email, since);
    expect(toNew.template).toBe('appointment_taken_over');
    expect(parseInvite(toNew.calendar!).method).toBe('REQUEST');
    const mail = await onlyTo(a.id, client.email, since);
    expect(mail.subject).toMatch(/: neuer Coach$/);
    expect(mail.body).not.toContain('Bisher:');
  });
});

describe('the client’s own booking, reschedule and cancel', () => {
  it('send the same invitations, updates and cancellations as staff changes', async () => {
    // Tuesday 10 December 2030, Berlin winter time (UTC+1).
    const { coach: poolCoach } = await coachWithAvailability(api, admin, {
      startDay: '2030-12-10',
      startTime: '10:00',
      endTime: '12:00',
    });
    const client = await signInClient(api);
    const email = `${unique('c')}@klient.example`;
    await api.database.db
      .update(clients)
      .set({ email, telephone: '+49 170 1234567', notifyViaSms: true })
      .where(eq(clients.id, client.clientId));

    const booked = await api.call('POST', '/api/client/book_initial_appointment', {
      as: client,
      body: { startDate: '2030-12-10T09:00:00.000Z' },
    });
    expectStatus(booked, 201);
    const id = booked.body.id as string;
    const templates = async () =>
      (await messagesOf(api, id)).map((m) => [m.template, m.channel, m.recipient]);
    expect(await templates()).toEqual(
      expect.arrayContaining([
        ['appointment_booked', 'email', email],
        ['appointment_booked', 'sms', '+49 170 1234567'],
        ['appointment_booked', 'email', poolCoach.email],
      ]),
    );
    expect(await waitingReminders(id)).toHaveLength(2);

    const moved = await api.call('PUT', `/api/client/initial_appointment/${id}`, {
      as: client,
      body: { startDate: '2030-12-10T10:00:00.000Z' },
    });
    expectStatus(moved, 200);
    const update = (await messagesOf(api, id)).find(
      (m) => m.template === 'appointment_rescheduled' && m.recipient === email,
    )!;
    expect(update.subject).toBe(
      'Ihr Termin wurde verschoben: Dienstag, 10. Dezember 2030, 11:00 Uhr',
    );
    expect(update.body).toContain('Bisher: Dienstag, 10. Dezember 2030, 10:00 Uhr');
    expect(Number(parseInvite(update.calendar!).event.sequence)).toBe(1);

    expectStatus(
      await api.call('DELETE', `/api/client/initial_appointment/${id}`, { as: client }),
      200,
    );
    const cancel = (await messagesOf(api, id)).find(
      (m) => m.template === 'appointment_cancelled' && m.recipient === poolCoach.email,
    )!;
    expect(parseInvite(cancel.calendar!).method).toBe('CANCEL');
    expect(await waitingReminders(id)).toEqual([]);
  });
});
