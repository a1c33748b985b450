import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarBusyTimes, coaches } from '../../server/db/schema/index';
import { sealStoredPasswords, syncConnection } from '../../server/features/calendars/index';
import { statementsDuring } from '../support/statements';
import type { Api } from '../support/api';
import {
  connectCalendar,
  icsOf,
  NEW_YORK_VTIMEZONE,
  startRadicale,
  type Radicale,
} from '../support/radicale';
import { expectProblem, expectStatus, type Caller, startApi } from './fixtures';
import { coachSlots, startsOf, testClock } from './scheduling-support';

// A coach's own CalDAV calendar (a real Radicale server) removes free slots: single,
// recurring, all-day and other-time-zone events do, events marked free do not.
const clock = testClock('2027-01-04T07:00:00Z');
const user = { name: 'carla', password: 'app-passwort-1234' };
let radicale: Radicale;
let api: Api;
let admin: Caller;
let coach: Awaited<ReturnType<Api['signIn']>>;
let otherCoach: Awaited<ReturnType<Api['signIn']>>;
let connectionId: string;

const base = () => `/api/coach/${coach.coachId}/calendar-connections`;
const german = JSON.parse(readFileSync('src/i18n/locales/de/staff.json', 'utf8')) as {
  connectedCalendars: { errors: Record<string, string> };
};

const event = (uid: string, ...lines: string[]) =>
  icsOf(
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20261201T000000Z',
    'SUMMARY:Zahnarzt',
    ...lines,
    'END:VEVENT',
  );

/** Slot starts (UTC) of the coach in the week of 2027-01-11, 60-minute slots. */
async function weekStarts() {
  const res = await coachSlots(
    api,
    admin,
    coach.coachId!,
    '2027-01-11T00:00:00Z',
    '2027-01-16T00:00:00Z',
  );
  expectStatus(res, 200);
  return new Set(startsOf(res.body));
}

async function runJobs() {
  await api.app.jobs.runDue();
}

async function connection() {
  const res = await api.call('GET', base(), { as: coach });
  expectStatus(res, 200);
  return res.body.connections[0];
}

beforeAll(async () => {
  radicale = await startRadicale([user]);
  ({
    api,
    callers: [admin, coach, otherCoach],
  } = await startApi(
    { now: clock.now, env: { CALENDAR_ALLOW_PRIVATE_SERVERS: 'true' } },
    'ADMIN',
    'COACH',
    'COACH',
  ));
  // Weekdays 09:00–13:00 and 14:00–17:00 Berlin time.
  for (const [startTime, endTime] of [
    ['09:00', '13:00'],
    ['14:00', '17:00'],
  ]) {
    expectStatus(
      await api.call('POST', '/api/availability', {
        as: admin,
        body: {
          coachId: coach.coachId,
          startDay: '2027-01-04',
          startTime,
          endTime,
          recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
        },
      }),
      201,
    );
  }
  const privat = await radicale.makeCalendar(user, 'privat', 'Privat');
  const arbeit = await radicale.makeCalendar(user, 'arbeit', 'Arbeit');
  await radicale.makeCalendar(user, 'feiertage', 'Feiertage');
  // Monday 10:00–11:00 Berlin.
  await radicale.putEvent(
    privat,
    user,
    'single',
    event(
      'single',
      'DTSTART;TZID=Europe/Berlin:20270111T100000',
      'DTEND;TZID=Europe/Berlin:20270111T110000',
    ),
  );
  // Every Tuesday 09:00–10:00 Berlin since 5 January, except... nothing: the 12th is blocked.
  await radicale.putEvent(
    privat,
    user,
    'weekly',
    event(
      'weekly',
      'DTSTART;TZID=Europe/Berlin:20270105T090000',
      'DTEND;TZID=Europe/Berlin:20270105T100000',
      'RRULE:FREQ=WEEKLY;BYDAY=TU',
    ),
  );
  // Wednesday all day.
  await radicale.putEvent(
    privat,
    user,
    'allday',
    event('allday', 'DTSTART;VALUE=DATE:20270113', 'DTEND;VALUE=DATE:20270114'),
  );
  // Thursday 08:00–09:00 in New York = 14:00–15:00 Berlin.
  await radicale.putEvent(
    arbeit,
    user,
    'newyork',
    icsOf(
      NEW_YORK_VTIMEZONE,
      'BEGIN:VEVENT',
      'UID:newyork',
      'DTSTAMP:20261201T000000Z',
      'SUMMARY:Call',
      'DTSTART;TZID=America/New_York:20270114T080000',
      'DTEND;TZID=America/New_York:20270114T090000',
      'END:VEVENT',
    ),
  );
  // Friday 10:00–11:00, shown as free: blocks nothing.
  await radicale.putEvent(
    arbeit,
    user,
    'free',
    event(
      'free',
      'DTSTART;TZID=Europe/Berlin:20270115T100000',
      'DTEND;TZID=Europe/Berlin:20270115T110000',
      'TRANSP:TRANSPARENT',
    ),
  );
});
afterAll(async () => {
  await api?.close();
  await radicale?.close();
});

describe('connecting a CalDAV calendar', () => {
  it('refuses a wrong app password with a code the profile shows in German, storing nothing', async () => {
    const res = await api.call('POST', base(), {
      as: coach,
      body: { serverUrl: radicale.url, username: user.name, password: 'falsch' },
    });
    expectProblem(res, 422, 'calendar_unauthorized');
    expect(german.connectedCalendars.errors[res.body.code]).toMatch(/App-Passwort abgelehnt/);
    expect((await connection()) ?? null).toBeNull();
  });

  it('answers calendar_unreachable when nothing listens at the address', async () => {
    const res = await api.call('POST', base(), {
      as: coach,
      body: { serverUrl: 'http://127.0.0.1:9/', username: user.name, password: user.password },
    });
    expectProblem(res, 422, 'calendar_unreachable');
  });

  it('refuses a cloud metadata address before connecting, naming the field', async () => {
    for (const serverUrl of ['http://169.254.169.254/', 'http://metadata.google.internal/dav']) {
      const res = await api.call('POST', base(), {
        as: coach,
        body: { serverUrl, username: user.name, password: user.password },
      });
      expectProblem(res, 400);
      expect(JSON.stringify(res.body.errors)).toContain('serverUrl');
      expect(JSON.stringify(res.body.errors)).toContain('calendar_server_refused');
    }
    expect((await connection()) ?? null).toBeNull();
  });

  it('discovers the calendars behind the address and never answers the password', async () => {
    const connected = await connectCalendar(api, coach, radicale, user);
    connectionId = connected.connectionId;
    expect(connected.created.status).toBe('pending');
    expect(Object.keys(connected.calendarIds)).toEqual(['Arbeit', 'Feiertage', 'Privat']);
    expect(JSON.stringify(connected.created)).not.toContain(user.password);
    const stored = await api.database.db.execute(
      sql`SELECT sealed_password FROM calendar_connections WHERE id = ${connectionId}::uuid`,
    );
    expect(JSON.stringify(stored)).not.toContain(user.password);

    // Another coach does not see it; an admin sees the state, not the password, and cannot connect.
    expectProblem(await api.call('GET', base(), { as: otherCoach }), 404);
    const seen = await api.call('GET', base(), { as: admin });
    expectStatus(seen, 200);
    expect(seen.body.connections).toHaveLength(1);
    expect(JSON.stringify(seen.body)).not.toContain(user.password);
    expectStatus(
      await api.call('POST', base(), {
        as: admin,
        body: { serverUrl: radicale.url, username: user.name, password: user.password },
      }),
      403,
    );
    expectProblem(
      await api.call('PATCH', `${base()}/${connectionId}`, {
        as: otherCoach,
        body: { blockingCalendarIds: [] },
      }),
      404,
    );
  });

  it('answers 404 for a calendar id that is not this connection’s', async () => {
    const res = await api.call('PATCH', `${base()}/${connectionId}`, {
      as: coach,
      body: { receivingCalendarId: '6f1c2d3e-4b5a-4c6d-8e7f-001122334455' },
    });
    expectProblem(res, 404, 'calendar_not_found');
  });
});

describe('busy times from the blocking calendars', () => {
  it('remove single, recurring, all-day and other-time-zone events from the slots, not free ones', async () => {
    const before = await weekStarts();
    // Availability alone: Monday 10:00 Berlin (09:00Z) is a slot.
    expect(before.has('2027-01-11T09:00:00.000Z')).toBe(true);

    const { calendars } = await connection();
    const id = (name: string) =>
      calendars.find((c: { displayName: string }) => c.displayName === name).id;
    const chosen = await api.call('PATCH', `${base()}/${connectionId}`, {
      as: coach,
      body: {
        blockingCalendarIds: [id('Privat'), id('Arbeit')],
        receivingCalendarId: id('Privat'),
      },
    });
    expectStatus(chosen, 200);
    await runJobs();
    const state = await connection();
    expect(state.status).toBe('ok');
    expect(state.lastSyncedAt).not.toBeNull();

    const after = await weekStarts();
    expect(after.has('2027-01-11T09:00:00.000Z'), 'single Monday 10:00').toBe(false);
    expect(after.has('2027-01-11T08:30:00.000Z'), 'Monday 09:30 runs into it').toBe(false);
    expect(after.has('2027-01-11T10:00:00.000Z'), 'Monday 11:00 free again').toBe(true);
    expect(after.has('2027-01-12T08:00:00.000Z'), 'weekly Tuesday 09:00').toBe(false);
    expect(after.has('2027-01-12T09:00:00.000Z'), 'Tuesday 10:00').toBe(true);
    expect(
      [...after].some((s) => s.startsWith('2027-01-13')),
      'all-day Wednesday',
    ).toBe(false);
    expect(after.has('2027-01-14T13:00:00.000Z'), 'New York 08:00 = Berlin 14:00').toBe(false);
    expect(after.has('2027-01-14T14:00:00.000Z'), 'Thursday 15:00 Berlin').toBe(true);
    expect(after.has('2027-01-15T09:00:00.000Z'), 'transparent Friday 10:00').toBe(true);
  });

  it('a second sync with nothing changed writes nothing and keeps the slot cache', async () => {
    const rows = async () =>
      (await api.database.db.select({ id: calendarBusyTimes.id }).from(calendarBusyTimes))
        .map((r) => r.id)
        .sort();
    const version = async () =>
      (
        await api.database.db
          .select({ v: coaches.scheduleVersion })
          .from(coaches)
          .where(eq(coaches.id, coach.coachId!))
      )[0]!.v;
    const [rowsBefore, versionBefore] = [await rows(), await version()];
    expect(rowsBefore.length).toBeGreaterThan(0);
    const result = await syncConnection(api.database.db, api.config, connectionId, new Date());
    expect(result).toEqual({ rowsWritten: 0, calendarsRead: 0, objectsParsed: 0 });
    expectStatus(await api.call('POST', `${base()}/${connectionId}/sync`, { as: coach }), 202);
    await runJobs();
    expect(await rows()).toEqual(rowsBefore);
    expect(await version()).toBe(versionBefore);
  });

  it('lets all-day events through when the coach says so', async () => {
    expectStatus(
      await api.call('PATCH', `${base()}/${connectionId}`, {
        as: coach,
        body: { allDayBlocks: false },
      }),
      200,
    );
    expect((await weekStarts()).has('2027-01-13T08:00:00.000Z')).toBe(true);
    expectStatus(
      await api.call('PATCH', `${base()}/${connectionId}`, {
        as: coach,
        body: { allDayBlocks: true },
      }),
      200,
    );
    await runJobs();
    expect((await weekStarts()).has('2027-01-13T08:00:00.000Z')).toBe(false);
  });

  it('keeps the last copy while the server is gone, and catches up when it is back', async () => {
    await radicale.stop();
    expectStatus(await api.call('POST', `${base()}/${connectionId}/sync`, { as: coach }), 202);
    await runJobs();
    const failing = await connection();
    expect(failing.status).toBe('failing');
    expect(failing.errorCode).toBe('calendar_unreachable');
    expect(german.connectedCalendars.errors[failing.errorCode]).toMatch(/nicht erreichbar/);
    expect((await weekStarts()).has('2027-01-11T09:00:00.000Z')).toBe(false);

    await radicale.start();
    await radicale.deleteEvent(`${radicale.url}/${user.name}/privat/`, user, 'single');
    expectStatus(await api.call('POST', `${base()}/${connectionId}/sync`, { as: coach }), 202);
    await runJobs();
    expect((await connection()).status).toBe('ok');
    const starts = await weekStarts();
    expect(starts.has('2027-01-11T09:00:00.000Z'), 'deleted event frees Monday').toBe(true);
    expect(starts.has('2027-01-12T08:00:00.000Z'), 'weekly Tuesday still blocks').toBe(false);
  });

  it('writes the new events of a sync in one statement per table', async ({ skip }) => {
    if (!process.env.DATABASE_URL) skip('counts statements sent to PostgreSQL');
    const privat = `${radicale.url}/${user.name}/privat/`;
    for (const day of ['25', '26', '27', '28']) {
      await radicale.putEvent(
        privat,
        user,
        `batch-${day}`,
        event(
          `batch-${day}`,
          `DTSTART;TZID=Europe/Berlin:202701${day}T100000`,
          `DTEND;TZID=Europe/Berlin:202701${day}T110000`,
        ),
      );
    }
    const { result, statements } = await statementsDuring(() =>
      syncConnection(api.database.db, api.config, connectionId, clock.now()),
    );
    expect(result).toMatchObject({ objectsParsed: 4 });
    const writes = (table: string) =>
      statements.filter((s) => new RegExp(`^(insert into|delete from) "${table}"`, 'i').test(s));
    expect(writes('calendar_busy_times')).toHaveLength(1);
    expect(writes('calendar_objects')).toHaveLength(1);
  });

  it('checks the address at every sync: an internal one is refused unless the practice allows it', async () => {
    const strict = { ...api.config, CALENDAR_ALLOW_PRIVATE_SERVERS: false };
    const setServer = (url: string) =>
      api.database.db.execute(
        sql`UPDATE calendar_connections SET server_url = ${url} WHERE id = ${connectionId}::uuid`,
      );
    try {
      // The address as saved (a literal loopback address), and a name that resolves to one now
      // (as a name does that pointed elsewhere when it was saved).
      for (const url of [radicale.url, `http://localhost:${radicale.port}`]) {
        await setServer(url);
        expect(await syncConnection(api.database.db, strict, connectionId, clock.now())).toBeNull();
        expect(await connection()).toMatchObject({
          status: 'failing',
          errorCode: 'calendar_unreachable',
        });
      }
      // Allowed (as in these tests), the name reaches the server at the address it resolved to.
      expect(
        await syncConnection(api.database.db, api.config, connectionId, clock.now()),
      ).not.toBeNull();
      expect((await connection()).status).toBe('ok');
    } finally {
      await setServer(radicale.url);
    }
  });

  it('seals the app password again with a new key, so the previous key can be dropped', async () => {
    const oldKey = api.config.WEBHOOK_SECRET_KEY;
    const newKey = 'ein-neuer-schluessel-fuer-die-geheimnisse-2027';
    const rotated = {
      ...api.config,
      WEBHOOK_SECRET_KEY: newKey,
      WEBHOOK_SECRET_KEY_PREVIOUS: oldKey,
    };
    const newOnly = {
      ...api.config,
      WEBHOOK_SECRET_KEY: newKey,
      WEBHOOK_SECRET_KEY_PREVIOUS: undefined,
    };
    const db = api.database.db;
    await expect(syncConnection(db, newOnly, connectionId, clock.now())).rejects.toThrow();
    expect(await sealStoredPasswords(db, rotated)).toBe(1);
    expect(await sealStoredPasswords(db, rotated)).toBe(0);
    expect(await syncConnection(db, newOnly, connectionId, clock.now())).not.toBeNull();
    expect((await connection()).status).toBe('ok');
    const stored = await db.execute(
      sql`SELECT sealed_password FROM calendar_connections WHERE id = ${connectionId}::uuid`,
    );
    expect(JSON.stringify(stored)).not.toContain(user.password);
    // Back to the test's key for the rest of the file.
    expect(
      await sealStoredPasswords(db, {
        ...api.config,
        WEBHOOK_SECRET_KEY: oldKey,
        WEBHOOK_SECRET_KEY_PREVIOUS: newKey,
      }),
    ).toBe(1);
  });

  it('disconnecting deletes the password and the kept busy times', async () => {
    expectStatus(await api.call('DELETE', `${base()}/${connectionId}`, { as: coach }), 204);
    expect((await connection()) ?? null).toBeNull();
    expect(await api.database.db.select().from(calendarBusyTimes)).toEqual([]);
    expect((await weekStarts()).has('2027-01-12T08:00:00.000Z')).toBe(true);
  });
});
