import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/raw-rows';
import { appointments, events } from '../../server/db/schema/index';
import { insertAppointment } from '../../server/features/appointments/booking';
import { syncConnection } from '../../server/features/calendars/index';
import type { Api } from '../support/api';
import { connectCalendar, icsOf, startRadicale, type Radicale } from '../support/radicale';
import { expectStatus, newClient, type Caller, startApi } from './fixtures';
import { testClock } from './scheduling-support';

// What staff see of a coach's connected calendar (a real Radicale server): private busy times
// as "Privat belegt" without any detail, the copy's age when the connection fails, and
// appointments a later private event overlaps, which stay booked and are reported once.
const clock = testClock('2027-01-04T07:00:00Z');
const user = { name: 'paula', password: 'app-passwort-5678' };
let radicale: Radicale;
let api: Api;
let admin: Caller;
let manager: Caller;
let coach: Awaited<ReturnType<Api['signIn']>>;
let otherCoach: Awaited<ReturnType<Api['signIn']>>;
let connectionId: string;
let privat: string;
let clientId: string;

const WEEK = { startDate: '2027-01-10T23:00:00Z', endDate: '2027-01-17T23:00:00Z' };
const base = () => `/api/coach/${coach.coachId}/calendar-connections`;

const privateEvent = (uid: string, start: string, end: string) =>
  icsOf(
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20261201T000000Z',
    'SUMMARY:Zahnarzt Dr. Geheim',
    'LOCATION:Praxis am Markt',
    'DESCRIPTION:Wurzelbehandlung',
    `DTSTART;TZID=Europe/Berlin:${start}`,
    `DTEND;TZID=Europe/Berlin:${end}`,
    'END:VEVENT',
  );

const sync = () => syncConnection(api.database.db, api.config, connectionId, clock.now());

const week = (as: Caller, query: Record<string, unknown> = {}) =>
  api.call('GET', '/api/calendar/events', { as, query: { ...WEEK, ...query } });

async function book(startDate: string, endDate: string) {
  const res = await api.call('POST', '/api/appointment', {
    as: admin,
    headers: { 'idempotency-key': `private-${startDate.replace(/\W/g, '')}` },
    body: {
      clientId,
      coachId: coach.coachId,
      startDate,
      endDate,
      appointmentType: 'followup',
      availabilityOverrideReason: 'Test',
    },
  });
  expectStatus(res, 201);
  return res.body.id as string;
}

const conflictsOf = (appointmentId: string) =>
  api.database.db
    .select({ changes: events.changes, coachId: events.coachId })
    .from(events)
    .where(
      and(eq(events.appointmentId, appointmentId), eq(events.type, 'appointment.private_conflict')),
    );

async function live(appointmentId: string) {
  const [row] = await api.database.db
    .select({
      cancelledAt: appointments.cancelledAt,
      startDate: appointments.startDate,
      endDate: appointments.endDate,
    })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  return row!;
}

beforeAll(async () => {
  radicale = await startRadicale([user]);
  ({
    api,
    callers: [admin, manager, coach, otherCoach],
  } = await startApi(
    { now: clock.now, env: { CALENDAR_ALLOW_PRIVATE_SERVERS: 'true' } },
    'ADMIN',
    'ONBOARDING_MANAGER',
    'COACH',
    'COACH',
  ));
  clientId = (await newClient(api, admin)).id;
  privat = await radicale.makeCalendar(user, 'privat', 'Privat');
  // Monday 11 January 10:00–11:00 and 10:30–12:00 Berlin: one block for staff, 10:00–12:00.
  await radicale.putEvent(
    privat,
    user,
    'zahnarzt',
    privateEvent('zahnarzt', '20270111T100000', '20270111T110000'),
  );
  await radicale.putEvent(
    privat,
    user,
    'physio',
    privateEvent('physio', '20270111T103000', '20270111T120000'),
  );
  ({ connectionId } = await connectCalendar(api, coach, radicale, user, { blocking: ['Privat'] }));
  await api.app.jobs.runDue();
});
afterAll(async () => {
  await api?.close();
  await radicale?.close();
});

describe('private busy times in the staff calendar', () => {
  const block = {
    coachId: '',
    startDate: '2027-01-11T09:00:00.000Z',
    endDate: '2027-01-11T11:00:00.000Z',
    allDay: false,
  };

  it('shows the coach, admins and onboarding managers the busy time, merged, without any detail', async () => {
    block.coachId = coach.coachId!;
    const state = await api.call('GET', base(), { as: coach });
    const lastSyncedAt = state.body.connections[0].lastSyncedAt as string;
    // The sync job ran on the app's clock, the one the staff view measures the copy's age by.
    expect(lastSyncedAt).toBe('2027-01-04T07:00:00.000Z');
    for (const [as, query] of [
      [coach, {}],
      [admin, { coachId: coach.coachId }],
      [admin, {}],
      [manager, { coachId: coach.coachId }],
    ] as const) {
      const res = await week(as, query);
      expectStatus(res, 200);
      expect(res.body.privateBusy).toEqual([block]);
      const text = JSON.stringify(res.body);
      for (const secret of ['Zahnarzt', 'Geheim', 'Praxis', 'Wurzel', 'zahnarzt', 'physio']) {
        expect(text).not.toContain(secret);
      }
      expect(res.body.privateCalendars).toEqual([
        { coachId: coach.coachId, failing: false, lastSyncedAt },
      ]);
    }
  });

  it('shows another coach nothing of it, exactly as that coach sees none of the appointments', async () => {
    for (const query of [{}, { coachId: coach.coachId }]) {
      const res = await week(otherCoach, query);
      expectStatus(res, 200);
      expect(res.body.privateBusy).toEqual([]);
      expect(res.body.privateCalendars).toEqual([]);
    }
    // Another coach's filter as admin: only that coach's (none).
    const res = await week(admin, { coachId: otherCoach.coachId });
    expect(res.body.privateBusy).toEqual([]);
  });

  it('shows the age of the last good copy while the server cannot be reached, and keeps the copy', async () => {
    const good = (await week(admin, { coachId: coach.coachId })).body.privateCalendars[0]
      .lastSyncedAt as string;
    await radicale.stop();
    clock.set('2027-01-04T12:00:00Z');
    try {
      expect(await sync()).toBeNull();
      const res = await week(admin, { coachId: coach.coachId });
      expect(res.body.privateCalendars).toEqual([
        { coachId: coach.coachId, failing: true, lastSyncedAt: good },
      ]);
      expect(res.body.privateBusy).toEqual([block]);
    } finally {
      await radicale.start();
    }
    await sync();
    const res = await week(admin, { coachId: coach.coachId });
    expect(res.body.privateCalendars[0]).toMatchObject({ failing: false });
  });
});

describe('an appointment a private event overlaps', () => {
  it('stays booked when a later sync brings the event; staff are told once, without its content', async () => {
    // Tuesday 12 January 09:00–10:00 Berlin.
    const id = await book('2027-01-12T08:00:00.000Z', '2027-01-12T09:00:00.000Z');
    const before = await live(id);
    await radicale.putEvent(
      privat,
      user,
      'bank',
      privateEvent('bank', '20270112T093000', '20270112T103000'),
    );
    await sync();
    expect(await live(id)).toEqual(before);
    expect(before.cancelledAt).toBeNull();
    const recorded = await conflictsOf(id);
    expect(recorded).toEqual([
      {
        coachId: coach.coachId,
        changes: { busyStart: '2027-01-12T08:30:00.000Z', busyEnd: '2027-01-12T09:30:00.000Z' },
      },
    ]);
    // The calendar marks it while the overlap lasts.
    const res = await week(admin, { coachId: coach.coachId });
    const entry = res.body.events.find((e: { appointmentId: string }) => e.appointmentId === id);
    expect(entry.privateConflict).toBe(true);

    // Once per appointment and busy interval: another change of the calendar adds none.
    await radicale.putEvent(
      privat,
      user,
      'kino',
      privateEvent('kino', '20270115T190000', '20270115T210000'),
    );
    await sync();
    expect(await conflictsOf(id)).toHaveLength(1);

    // The private event moves away: the mark goes, the report stays.
    await radicale.deleteEvent(privat, user, 'bank');
    await sync();
    const after = await week(admin, { coachId: coach.coachId });
    expect(
      after.body.events.find((e: { appointmentId: string }) => e.appointmentId === id)
        .privateConflict,
    ).toBe(false);
    expect(await conflictsOf(id)).toHaveLength(1);
    expect((await live(id)).cancelledAt).toBeNull();
  });

  it('is reported by the booking when the busy time was kept before it (staff book over it)', async () => {
    await radicale.putEvent(
      privat,
      user,
      'yoga',
      privateEvent('yoga', '20270113T140000', '20270113T150000'),
    );
    await sync();
    const id = await book('2027-01-13T13:30:00.000Z', '2027-01-13T14:30:00.000Z');
    expect(await conflictsOf(id)).toHaveLength(1);
  });
});

// Both sides wait behind the coach's calendar lock (held here from another connection), in
// the order the test chooses; PostgreSQL grants the lock in that order. PGlite runs one
// connection, so there is no race to provoke.
describe.skipIf(!process.env.DATABASE_URL)('a sync racing a booking for the same time', () => {
  async function waitingForLock(n: number) {
    for (let i = 0; i < 200; i++) {
      const count = rowsOf<{ n: number }>(
        await api.database.db.execute(
          sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
        ),
      )[0]!.n;
      if (count >= n) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`fewer than ${n} transactions wait for the calendar lock`);
  }

  async function race(first: 'sync' | 'booking', uid: string, day: string, hourUtc: number) {
    const start = `2027-01-${day}T${String(hourUtc).padStart(2, '0')}:00:00.000Z`;
    const end = `2027-01-${day}T${String(hourUtc + 1).padStart(2, '0')}:00:00.000Z`;
    const berlin = (h: number) => `202701${day}T${String(h + 1).padStart(2, '0')}0000`;
    await radicale.putEvent(
      privat,
      user,
      uid,
      privateEvent(uid, berlin(hourUtc), berlin(hourUtc + 1)),
    );
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    const holder = api.database.db.transaction(async (tx) => {
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(hashtextextended(${coach.coachId!.toLowerCase()}::text, 0))`,
      );
      held();
      await gate;
    });
    await isHeld;
    let booking: Promise<string> | undefined;
    let syncing: Promise<unknown> | undefined;
    try {
      if (first === 'sync') {
        syncing = sync();
        await waitingForLock(1);
        booking = book(start, end);
      } else {
        booking = book(start, end);
        await waitingForLock(1);
        syncing = sync();
      }
      await waitingForLock(2);
    } finally {
      release();
      await holder;
    }
    const [id] = await Promise.all([booking, syncing]);
    const recorded = await conflictsOf(id);
    expect(recorded.map((r) => r.changes)).toEqual([{ busyStart: start, busyEnd: end }]);
    expect((await live(id)).cancelledAt).toBeNull();
  }

  it('reports the overlap when the sync takes the lock first (the booking sees the busy time)', async () => {
    await race('sync', 'rennen-1', '14', 8);
  });

  it('reports the overlap when the booking takes the lock first (the sync sees the appointment)', async () => {
    await race('booking', 'rennen-2', '14', 10);
  });

  it('reports the overlap when the sync writes while a checked booking has not committed yet', async () => {
    // The booking has written and checked (finding no busy time) but not committed: a sync
    // that checked without waiting for the calendar lock would see no appointment either.
    const start = '2027-01-14T13:00:00.000Z';
    const end = '2027-01-14T14:00:00.000Z';
    await radicale.putEvent(
      privat,
      user,
      'rennen-3',
      privateEvent('rennen-3', '20270114T140000', '20270114T150000'),
    );
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let checked!: () => void;
    const isChecked = new Promise<void>((resolve) => (checked = resolve));
    const booking = api.database.db.transaction(async (tx) => {
      const made = await insertAppointment(tx, {
        coachId: coach.coachId!,
        clientId,
        startDate: start,
        endDate: end,
        appointmentType: 'followup',
      });
      checked();
      await gate;
      return made.id;
    });
    await isChecked;
    const syncing = sync();
    try {
      await waitingForLock(1);
    } finally {
      release();
    }
    const [id] = await Promise.all([booking, syncing]);
    expect((await conflictsOf(id)).map((r) => r.changes)).toEqual([
      { busyStart: start, busyEnd: end },
    ]);
  });
});
