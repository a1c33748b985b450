import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calendarBusyTimes,
  calendarWrittenEvents,
  communications,
  events,
} from '../../server/db/schema/index';
import {
  reconcileWrites,
  RECONCILE_WRITES_JOB,
  syncConnection,
  WRITE_APPOINTMENT_JOB,
} from '../../server/features/calendars/index';
import { rowsOf } from '../../server/db/raw-rows';
import { statementsDuring } from '../support/statements';
import type { Api } from '../support/api';
import { connectCalendar, startRadicale, type Radicale } from '../support/radicale';
import { expectStatus, newAppointment, newClient, type Caller, startApi } from './fixtures';
import { coachSlots, startsOf, testClock } from './scheduling-support';

// Booked, moved and cancelled appointments appear, move and disappear in the coach's own
// CalDAV calendar (a real Radicale server), with the invitation's UID and without health data.
const clock = testClock('2027-01-04T07:00:00Z');
const user = { name: 'wibke', password: 'app-passwort-5678' };
const otherUser = { name: 'otto', password: 'app-passwort-9012' };
let radicale: Radicale;
let api: Api;
let admin: Caller;
let coach: Awaited<ReturnType<Api['signIn']>>;
let otherCoach: Awaited<ReturnType<Api['signIn']>>;
let praxis: string;
let client: { id: string; firstName: string; lastName: string };
let connectionId: string;
let otherConnectionId: string;
let privat: string;
let arbeit: string;
let booked: { id: string };
let second: { id: string };

const base = () => `/api/coach/${coach.coachId}/calendar-connections`;
const runJobs = () => api.app.jobs.runDue();

/** The calendar's events by UID, as Radicale holds them. */
async function eventsIn(calendarUrl: string, owner = user) {
  const events = await radicale.listEvents(calendarUrl, owner);
  return new Map(events.map((e) => [/^UID:(.+)$/m.exec(e)![1]!.trim(), e.replace(/\r\n /g, '')]));
}

const line = (event: string, name: string) =>
  new RegExp(`^${name}[^:]*:(.*)$`, 'm').exec(event)?.[1]?.trim();

async function connection() {
  const res = await api.call('GET', base(), { as: coach });
  expectStatus(res, 200);
  return res.body.connections[0];
}

/** The UID of the coach's invitation mail of an appointment (the latest one). */
async function invitationUid(appointmentId: string) {
  const rows = await api.database.db
    .select({ calendar: communications.calendar })
    .from(communications)
    .where(
      and(eq(communications.appointmentId, appointmentId), isNotNull(communications.calendar)),
    );
  const uids = new Set(rows.map((r) => /^UID:(.+)$/m.exec(r.calendar!)![1]!.trim()));
  expect(uids.size).toBe(1);
  return [...uids][0]!;
}

async function mondayStarts() {
  const res = await coachSlots(
    api,
    admin,
    coach.coachId!,
    '2027-01-11T00:00:00Z',
    '2027-01-12T00:00:00Z',
  );
  expectStatus(res, 200);
  return new Set(startsOf(res.body));
}

beforeAll(async () => {
  radicale = await startRadicale([user, otherUser]);
  ({
    api,
    callers: [admin, coach, otherCoach],
  } = await startApi(
    { now: clock.now, env: { CALENDAR_ALLOW_PRIVATE_SERVERS: 'true' } },
    'ADMIN',
    'COACH',
    'COACH',
  ));
  for (const { coachId } of [coach, otherCoach]) {
    expectStatus(
      await api.call('POST', '/api/availability', {
        as: admin,
        body: {
          coachId,
          startDay: '2027-01-04',
          startTime: '09:00',
          endTime: '17:00',
          recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
        },
      }),
      201,
    );
  }
  client = await newClient(api, admin, { firstName: 'Klara', email: 'klara@example.test' });
  privat = await radicale.makeCalendar(user, 'privat', 'Privat');
  arbeit = await radicale.makeCalendar(user, 'arbeit', 'Arbeit');
  // The receiving calendar blocks slots too: the events written into it come back in the sync.
  const mine = await connectCalendar(api, coach, radicale, user, {
    blocking: ['Privat'],
    receiving: 'Privat',
  });
  expect(mine.created.shareClientFirstName).toBe(false);
  expect(mine.created.writeErrorCode).toBeNull();
  connectionId = mine.connectionId;
  // The other coach receives in a calendar of their own account.
  praxis = await radicale.makeCalendar(otherUser, 'praxis', 'Praxis');
  ({ connectionId: otherConnectionId } = await connectCalendar(
    api,
    otherCoach,
    radicale,
    otherUser,
    { receiving: 'Praxis' },
  ));
  await runJobs();
});
afterAll(async () => {
  await api?.close();
  await radicale?.close();
});

describe('appointments written into the receiving calendar', () => {
  it('a booking appears with the invitation’s UID and no health data', async () => {
    // Monday 11 January, 10:00–11:00 Berlin.
    booked = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.coachId!,
      startDate: '2027-01-11T09:00:00.000Z',
      minutes: 60,
      appointmentType: 'first-arztkonsultation',
    });
    expect((await eventsIn(privat)).size).toBe(0);
    await runJobs();
    const events = await eventsIn(privat);
    expect(events.size).toBe(1);
    const uid = await invitationUid(booked.id);
    expect(uid).toBe(`appointment-${booked.id}@${new URL(api.config.PUBLIC_URL).hostname}`);
    const event = events.get(uid)!;
    expect(event, 'same UID as the invitation').toBeDefined();
    expect(line(event, 'SUMMARY')).toBe('Termin');
    expect(line(event, 'DTSTART')).toBe('20270111T090000Z');
    expect(line(event, 'DTEND')).toBe('20270111T100000Z');
    for (const secret of [client.firstName, client.lastName, 'Konsultation', 'Ersttermin']) {
      expect(event).not.toContain(secret);
    }
    // No scheduling: a server must not mail anyone an invitation of its own.
    expect(event).not.toMatch(/^(ATTENDEE|ORGANIZER)/m);
  });

  it('the written event does not block the coach’s slots when it is read back', async () => {
    // The appointment moves to Tuesday; the sync reads the calendar before the write job ran,
    // so Monday 10:00 is still in it, as our own event.
    expectStatus(
      await api.call('PUT', `/api/appointment/${booked.id}`, {
        as: admin,
        body: { startDate: '2027-01-12T10:00:00.000Z', endDate: '2027-01-12T11:00:00.000Z' },
      }),
      200,
    );
    const mondayEvent = [...(await eventsIn(privat)).values()][0]!;
    expect(line(mondayEvent, 'DTSTART')).toBe('20270111T090000Z');
    await syncConnection(api.database.db, api.config, connectionId, clock.now());
    expect((await connection()).status).toBe('ok');
    expect(
      await api.database.db
        .select()
        .from(calendarBusyTimes)
        .where(eq(calendarBusyTimes.coachId, coach.coachId!)),
    ).toEqual([]);
    expect((await mondayStarts()).has('2027-01-11T09:00:00.000Z'), 'Monday 10:00 free').toBe(true);
  });

  it('a move replaces the same event: same UID, new time', async () => {
    const uid = await invitationUid(booked.id);
    await runJobs();
    const events = await eventsIn(privat);
    expect([...events.keys()]).toEqual([uid]);
    const event = events.get(uid)!;
    expect(line(event, 'DTSTART')).toBe('20270112T100000Z');
    expect(line(event, 'DTEND')).toBe('20270112T110000Z');
    expect(line(event, 'SEQUENCE')).toBe('1');
  });

  it('shows the client’s first name only when the coach chose so', async () => {
    const res = await api.call('PATCH', `${base()}/${connectionId}`, {
      as: coach,
      body: { shareClientFirstName: true },
    });
    expectStatus(res, 200);
    expect(res.body.shareClientFirstName).toBe(true);
    await runJobs();
    const event = (await eventsIn(privat)).get(await invitationUid(booked.id))!;
    expect(line(event, 'SUMMARY')).toBe('Termin: Klara');
    expect(event).not.toContain(client.lastName);

    expectStatus(
      await api.call('PATCH', `${base()}/${connectionId}`, {
        as: coach,
        body: { shareClientFirstName: false },
      }),
      200,
    );
    await runJobs();
    const again = (await eventsIn(privat)).get(await invitationUid(booked.id))!;
    expect(line(again, 'SUMMARY')).toBe('Termin');
  });

  it('a copy the coach edited in their calendar is replaced by the next move', async () => {
    const uid = await invitationUid(booked.id);
    const [written] = await api.database.db
      .select()
      .from(calendarWrittenEvents)
      .where(eq(calendarWrittenEvents.appointmentId, booked.id));
    const edited = (await eventsIn(privat))
      .get(uid)!
      .replace(/END:VCALENDAR\s*$/, '')
      .replace(/^SUMMARY:.*$/m, 'SUMMARY:Geändert');
    const put = await fetch(new URL(written!.href, radicale.url), {
      method: 'PUT',
      headers: {
        authorization: `Basic ${Buffer.from(`${user.name}:${user.password}`).toString('base64')}`,
        'content-type': 'text/calendar; charset=utf-8',
      },
      body: `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//DE\r\n${edited.trim()}\r\nEND:VCALENDAR\r\n`,
    });
    expect(put.status, await put.clone().text()).toBeLessThan(300);
    expect(put.headers.get('etag')).not.toBe(written!.etag);
    expectStatus(
      await api.call('PUT', `/api/appointment/${booked.id}`, {
        as: admin,
        body: { startDate: '2027-01-12T13:00:00.000Z', endDate: '2027-01-12T14:00:00.000Z' },
      }),
      200,
    );
    await runJobs();
    const events = await eventsIn(privat);
    expect([...events.keys()]).toEqual([uid]);
    expect(line(events.get(uid)!, 'SUMMARY')).toBe('Termin');
    expect(line(events.get(uid)!, 'DTSTART')).toBe('20270112T130000Z');
  });

  it('a booking while the calendar server is down succeeds; the write follows when it is back', async () => {
    await radicale.stop();
    const started = Date.now();
    second = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.coachId!,
      startDate: '2027-01-13T13:00:00.000Z',
      minutes: 60,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    await runJobs();
    expect(await api.app.jobs.retrying(WRITE_APPOINTMENT_JOB)).toBe(1);
    expect((await connection()).writeErrorCode).toBe('calendar_unreachable');

    await radicale.start();
    expect(await api.app.jobs.retryNow(WRITE_APPOINTMENT_JOB)).toBe(1);
    await runJobs();
    expect(await api.app.jobs.retrying(WRITE_APPOINTMENT_JOB)).toBe(0);
    const events = await eventsIn(privat);
    expect(line(events.get(await invitationUid(second.id))!, 'DTSTART')).toBe('20270113T130000Z');
    expect((await connection()).writeErrorCode).toBeNull();
  });

  it('a cancellation removes the event', async () => {
    expectStatus(await api.call('DELETE', `/api/appointment/${booked.id}`, { as: admin }), 200);
    await runJobs();
    const events = await eventsIn(privat);
    expect(events.has(await invitationUid(booked.id))).toBe(false);
    expect(events.size).toBe(1);
  });

  it('an appointment handed to another coach leaves the first coach’s calendar for theirs', async () => {
    const third = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.coachId!,
      startDate: '2027-01-14T09:00:00.000Z',
      minutes: 60,
    });
    await runJobs();
    const uid = await invitationUid(third.id);
    expect((await eventsIn(privat)).has(uid)).toBe(true);
    expectStatus(
      await api.call('PUT', `/api/appointment/${third.id}`, {
        as: admin,
        body: { coachId: otherCoach.coachId },
      }),
      200,
    );
    await runJobs();
    expect((await eventsIn(privat)).has(uid)).toBe(false);
    const event = (await eventsIn(praxis, otherUser)).get(uid)!;
    expect(line(event, 'DTSTART')).toBe('20270114T090000Z');
  });

  it('another receiving calendar takes the upcoming appointments over from the previous one', async () => {
    const { calendars } = await connection();
    const arbeitId = calendars.find((c: { displayName: string }) => c.displayName === 'Arbeit').id;
    expectStatus(
      await api.call('PATCH', `${base()}/${connectionId}`, {
        as: coach,
        body: { receivingCalendarId: arbeitId },
      }),
      200,
    );
    await runJobs();
    const uid = await invitationUid(second.id);
    expect([...(await eventsIn(privat)).keys()]).toEqual([]);
    expect([...(await eventsIn(arbeit)).keys()]).toEqual([uid]);
  });

  it('after disconnecting, a queued write finds nothing to do and the events stay', async () => {
    const before = await api.app.jobs.all(WRITE_APPOINTMENT_JOB);
    expectStatus(
      await api.call('PUT', `/api/appointment/${second.id}`, {
        as: admin,
        body: { startDate: '2027-01-14T13:00:00.000Z', endDate: '2027-01-14T14:00:00.000Z' },
      }),
      200,
    );
    expectStatus(await api.call('DELETE', `${base()}/${connectionId}`, { as: coach }), 204);
    // Connecting and disconnecting are on the record, without the password.
    const recorded = await api.database.db
      .select()
      .from(events)
      .where(eq(events.entityId, connectionId))
      .orderBy(events.occurredAt);
    expect(recorded.map((e) => e.type)).toEqual([
      'calendar_connection.connected',
      'calendar_connection.disconnected',
    ]);
    expect(JSON.stringify(recorded)).not.toContain(user.password);
    await runJobs();
    const jobs = await api.app.jobs.all(WRITE_APPOINTMENT_JOB);
    expect(jobs.length).toBe(before.length + 1);
    expect(jobs.every((j) => j.state === 'completed')).toBe(true);
    const event = (await eventsIn(arbeit)).get(await invitationUid(second.id))!;
    expect(line(event, 'DTSTART'), 'left as it was').toBe('20270113T130000Z');
    // And nothing is queued for the coach any more.
    await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.coachId!,
      startDate: '2027-01-15T09:00:00.000Z',
      minutes: 60,
    });
    expect(await api.app.jobs.all(WRITE_APPOINTMENT_JOB)).toHaveLength(jobs.length);
  });
});

describe('writes that gave up, and what a write costs', () => {
  const otherBase = () => `/api/coach/${otherCoach.coachId}/calendar-connections`;
  const retryAll = async () => {
    for (let i = 0; i < 15 && (await api.app.jobs.retrying(WRITE_APPOINTMENT_JOB)) > 0; i++) {
      await api.app.jobs.retryNow(WRITE_APPOINTMENT_JOB);
      await runJobs();
    }
  };

  it('a write whose last retry failed is queued again by the reconcile once the server is back', async () => {
    await radicale.stop();
    let late: { id: string };
    try {
      late = await newAppointment(api, admin, {
        clientId: client.id,
        coachId: otherCoach.coachId!,
        startDate: '2027-01-18T09:00:00.000Z',
        minutes: 60,
      });
      await runJobs();
      await retryAll();
      const tries = await api.app.jobs.all<{ appointmentId: string }>(WRITE_APPOINTMENT_JOB, {
        appointmentId: late.id,
      });
      expect(tries.map((j) => j.state)).toEqual(['failed']);
      // While the connection cannot be reached, the reconcile leaves it alone.
      await api.database.db.execute(
        sql`UPDATE calendar_connections SET status = 'failing' WHERE id = ${otherConnectionId}::uuid`,
      );
      expect(await reconcileWrites(api.database.db, api.config, api.app.jobs, clock.now())).toBe(0);
    } finally {
      await radicale.start();
    }
    await syncConnection(api.database.db, api.config, otherConnectionId, clock.now());
    const state = await api.call('GET', otherBase(), { as: otherCoach });
    expect(state.body.connections[0]).toMatchObject({
      status: 'ok',
      writeErrorCode: 'calendar_unreachable',
    });
    const uid = await invitationUid(late.id);
    expect((await eventsIn(praxis, otherUser)).has(uid)).toBe(false);

    // The periodic job: it queues the write, which puts the event.
    expect((await api.app.jobs.schedules()).map((j) => j.name)).toContain(RECONCILE_WRITES_JOB);
    await api.app.jobs.send(api.database.db, RECONCILE_WRITES_JOB, {});
    await runJobs();
    const event = (await eventsIn(praxis, otherUser)).get(uid)!;
    expect(line(event, 'DTSTART')).toBe('20270118T090000Z');
    const after = await api.call('GET', otherBase(), { as: otherCoach });
    expect(after.body.connections[0].writeErrorCode).toBeNull();
    // Everything is written as wanted now: nothing more to queue.
    expect(await reconcileWrites(api.database.db, api.config, api.app.jobs, clock.now())).toBe(0);
  });

  it('a move whose write gave up is rewritten by the reconcile with the new time', async () => {
    const moved = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: otherCoach.coachId!,
      startDate: '2027-01-19T09:00:00.000Z',
      minutes: 60,
    });
    await runJobs();
    await radicale.stop();
    try {
      expectStatus(
        await api.call('PUT', `/api/appointment/${moved.id}`, {
          as: admin,
          body: { startDate: '2027-01-19T12:00:00.000Z', endDate: '2027-01-19T13:00:00.000Z' },
        }),
        200,
      );
      await runJobs();
      await retryAll();
    } finally {
      await radicale.start();
    }
    const uid = await invitationUid(moved.id);
    expect(line((await eventsIn(praxis, otherUser)).get(uid)!, 'DTSTART')).toBe('20270119T090000Z');
    expect(await reconcileWrites(api.database.db, api.config, api.app.jobs, clock.now())).toBe(1);
    await runJobs();
    expect(line((await eventsIn(praxis, otherUser)).get(uid)!, 'DTSTART')).toBe('20270119T120000Z');
  });

  it('holds no database connection while the calendar server answers', async ({ skip }) => {
    if (!process.env.DATABASE_URL) skip('PGlite has one connection and no pg_stat_activity');
    const waiting = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: otherCoach.coachId!,
      startDate: '2027-01-20T09:00:00.000Z',
      minutes: 60,
    });
    radicale.freeze();
    let running: Promise<number>;
    try {
      running = runJobs();
      // The write has read what it needs and waits for the frozen server.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const open = rowsOf<{ n: number }>(
        await api.database.db.execute(sql`
          SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND state LIKE 'idle in transaction%'`),
      )[0]!.n;
      expect(open, 'transactions open while the calendar server is asked').toBe(0);
    } finally {
      radicale.thaw();
    }
    await running;
    expect((await eventsIn(praxis, otherUser)).has(await invitationUid(waiting.id))).toBe(true);
  });

  it('a booking for a coach without a receiving calendar asks nothing extra about calendars', async ({
    skip,
  }) => {
    if (!process.env.DATABASE_URL) skip('counts statements sent to PostgreSQL');
    const plain = await api.signIn('COACH');
    const before = (await api.app.jobs.all(WRITE_APPOINTMENT_JOB)).length;
    const { statements } = await statementsDuring(() =>
      newAppointment(api, admin, {
        clientId: client.id,
        coachId: plain.coachId!,
        startDate: '2027-01-21T09:00:00.000Z',
        minutes: 60,
      }),
    );
    const aboutWrites = statements.filter((s) => s.includes('calendar_written_events'));
    // The question rides on the read of the appointment the notifications make anyway.
    expect(aboutWrites).toHaveLength(1);
    expect(aboutWrites[0]).toContain('"coaches"');
    expect(await api.app.jobs.all(WRITE_APPOINTMENT_JOB)).toHaveLength(before);
  });
});
