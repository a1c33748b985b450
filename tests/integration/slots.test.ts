import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coaches, users } from '../../server/db/schema/index';
import { eq, sql } from 'drizzle-orm';
import { expandCompactSlots } from '../../shared/compact-slots';
import type { Api } from '../support/api';
import {
  bookAppointment,
  type Caller,
  expectFieldError,
  expectProblem,
  expectStatus,
  newClient,
  startApi,
} from './fixtures';
import { coachSlots, coachWithAvailability, startsOf, testClock } from './scheduling-support';

const clock = testClock('2027-03-01T08:00:00Z');
let api: Api;
let admin: Caller;

beforeAll(async () => {
  ({
    api,
    callers: [admin],
  } = await startApi({ now: clock.now }, 'ADMIN'));
});
afterAll(() => api.close());

/** Every 15 minutes from `first` (UTC ISO) for `count` slots. */
const grid = (first: string, count: number) =>
  Array.from({ length: count }, (_, i) =>
    new Date(Date.parse(first) + i * 15 * 60_000).toISOString(),
  );

const SUNDAYS_09_12 = {
  startDay: '2027-03-07',
  startTime: '09:00',
  endTime: '12:00',
  recurrence: 'FREQ=WEEKLY;BYDAY=SU',
};

describe('free slots across daylight-saving changes', () => {
  it('keeps a 09:00–12:00 Berlin availability at 09:00 local on 2027-03-28 and 2027-10-31', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const { coach } = await coachWithAvailability(api, admin, SUNDAYS_09_12);

    // The Sunday before the change is CET (UTC+1), 2027-03-28 is CEST (UTC+2).
    const march = await coachSlots(
      api,
      admin,
      coach.id,
      '2027-03-20T00:00:00Z',
      '2027-03-29T00:00:00Z',
    );
    expectStatus(march, 200);
    expect(march.body.timeZone).toBe('Europe/Berlin');
    expect(startsOf(march.body)).toEqual([
      ...grid('2027-03-21T08:00:00.000Z', 9), // 09:00–11:00 CET starts
      ...grid('2027-03-28T07:00:00.000Z', 9), // 09:00–11:00 CEST starts
    ]);
    expect(march.body.slots[0]).toEqual({
      startDate: '2027-03-21T08:00:00.000Z',
      endDate: '2027-03-21T09:00:00.000Z',
      coachId: coach.id,
      coach: { id: coach.id, firstName: coach.firstName, lastName: coach.lastName },
    });

    // 2027-10-24 is CEST, 2027-10-31 (the change at 03:00) is CET.
    const october = await coachSlots(
      api,
      admin,
      coach.id,
      '2027-10-23T00:00:00Z',
      '2027-11-01T00:00:00Z',
    );
    expect(startsOf(october.body)).toEqual([
      ...grid('2027-10-24T07:00:00.000Z', 9),
      ...grid('2027-10-31T08:00:00.000Z', 9),
    ]);
  });

  it('puts slots of a 30-minute step on the local grid', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const { coach } = await coachWithAvailability(api, admin, {
      startDay: '2027-03-28',
      startTime: '09:10',
      endTime: '10:30',
    });
    const res = await coachSlots(
      api,
      admin,
      coach.id,
      '2027-03-28T00:00:00Z',
      '2027-03-29T00:00:00Z',
      30,
    );
    // 09:10 is not on the 15-minute grid: the first slot starts 09:15 local (07:15Z).
    expect(startsOf(res.body)).toEqual(grid('2027-03-28T07:15:00.000Z', 4));
  });
});

describe('appointments and blockers', () => {
  it('removes booked time; back-to-back bookings fit, overlapping ones are refused', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const { coach } = await coachWithAvailability(api, admin, SUNDAYS_09_12);
    const client = await newClient(api, admin);
    const book = (startDate: string, minutes = 60, appointmentType = 'followup') =>
      bookAppointment(api, admin, {
        clientId: client.id,
        coachId: coach.id,
        startDate,
        minutes,
        appointmentType,
      });

    expectStatus(await book('2027-03-28T07:00:00.000Z'), 201);
    // Overlapping the first by 30 minutes: refused, nothing booked.
    expectProblem(await book('2027-03-28T07:30:00.000Z'), 409, 'slot_taken');
    // Starting exactly at its end: fine (an ad-hoc appointment, which staff book the same way).
    const adhoc = await book('2027-03-28T08:00:00.000Z', 60, 'adhoc');
    expectStatus(adhoc, 201);
    expect(adhoc.body.appointmentType).toBe('adhoc');

    const res = await coachSlots(
      api,
      admin,
      coach.id,
      '2027-03-28T00:00:00Z',
      '2027-03-29T00:00:00Z',
    );
    // 07:00–09:00Z is booked; one free hour 09:00–10:00Z remains.
    expect(startsOf(res.body)).toEqual(['2027-03-28T09:00:00.000Z']);

    // A cancelled appointment frees its time again.
    const list = await api.call('GET', '/api/appointments', {
      as: admin,
      query: { clientId: client.id },
    });
    const first = list.body.appointments.find(
      (a: { startDate: string }) => a.startDate === '2027-03-28T07:00:00.000Z',
    );
    expectStatus(await api.call('DELETE', `/api/appointment/${first.id}`, { as: admin }), 200);
    const after = await coachSlots(
      api,
      admin,
      coach.id,
      '2027-03-28T00:00:00Z',
      '2027-03-29T00:00:00Z',
    );
    expect(startsOf(after.body)).toEqual(['2027-03-28T07:00:00.000Z', '2027-03-28T09:00:00.000Z']);
  });

  it('removes blocker time', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const { coach } = await coachWithAvailability(api, admin, SUNDAYS_09_12);
    expectStatus(
      await api.call('POST', '/api/availability', {
        as: admin,
        body: {
          coachId: coach.id,
          kind: 'blocker',
          startDay: '2027-03-28',
          startTime: '09:30',
          endTime: '11:30',
          note: 'Supervision',
        },
      }),
      201,
    );
    const res = await coachSlots(
      api,
      admin,
      coach.id,
      '2027-03-28T00:00:00Z',
      '2027-03-29T00:00:00Z',
      30,
    );
    // Free: 09:00–09:30 and 11:30–12:00 local.
    expect(startsOf(res.body)).toEqual(['2027-03-28T07:00:00.000Z', '2027-03-28T09:30:00.000Z']);
  });
});

describe('minimum notice', () => {
  it('shows clients only slots 24 h ahead; staff see every future slot', async () => {
    const { coach } = await coachWithAvailability(api, admin, SUNDAYS_09_12);
    const window = {
      startDate: '2027-03-28T00:00:00Z',
      endDate: '2027-03-29T00:00:00Z',
      duration: 30,
    };
    const clientSlots = async () => {
      const res = await api.call('GET', '/api/client/initial_appointment_slots', {
        as: admin,
        query: window,
      });
      expectStatus(res, 200);
      // The pool lists each start once (other tests' coaches share these Sunday hours).
      return startsOf(res.body);
    };
    // Saturday 10:00Z: 24 h later is after Sunday's last start (09:30Z).
    clock.set('2027-03-27T10:00:00Z');
    expect(await clientSlots()).toEqual([]);
    const staff = await coachSlots(api, admin, coach.id, window.startDate, window.endDate, 30);
    expect(startsOf(staff.body)).toEqual(grid('2027-03-28T07:00:00.000Z', 11));

    // Saturday 08:20Z: from Sunday 08:20Z on, so the first client slot is 08:30Z.
    clock.set('2027-03-27T08:20:00Z');
    expect(await clientSlots()).toEqual(grid('2027-03-28T08:30:00.000Z', 5));

    // Slots in the past are never offered, not even to staff.
    clock.set('2027-03-28T08:10:00Z');
    const late = await coachSlots(api, admin, coach.id, window.startDate, window.endDate, 30);
    expect(startsOf(late.body)).toEqual(grid('2027-03-28T08:15:00.000Z', 6));
  });
});

describe('calendars', () => {
  it('pools the coaches taking initial appointments and lists each start once', async () => {
    clock.set('2027-04-01T08:00:00Z');
    const day = { startDay: '2027-04-11', startTime: '14:00', endTime: '15:00' };
    const a = await coachWithAvailability(api, admin, day);
    const b = await coachWithAvailability(api, admin, {
      ...day,
      startTime: '14:30',
      endTime: '15:30',
    });
    const notPooled = await coachWithAvailability(api, admin, {
      ...day,
      startTime: '16:00',
      endTime: '17:00',
    });
    await api.database.db
      .update(coaches)
      .set({ takesInitialAppointments: false })
      .where(eq(coaches.id, notPooled.coach.id));
    // Coach a is busier in the window: the pooled slot at 14:30 goes to b.
    const client = await newClient(api, admin);
    expectStatus(
      await bookAppointment(api, admin, {
        clientId: client.id,
        coachId: a.coach.id,
        startDate: '2027-04-11T12:45:00.000Z',
        minutes: 15,
      }),
      201,
    );

    const window = {
      startDate: '2027-04-11T00:00:00Z',
      endDate: '2027-04-12T00:00:00Z',
      duration: 30,
    };
    const pooled = await api.call('GET', '/api/admin/calendar/available_slots/initial-meetings', {
      as: admin,
      query: window,
    });
    expectStatus(pooled, 200);
    const ours = pooled.body.slots.filter((s: { coachId: string }) =>
      [a.coach.id, b.coach.id, notPooled.coach.id].includes(s.coachId),
    );
    // a: 14:00, 14:15 (12:45Z–13:00Z booked → only 14:00–14:30 local… see below); b: 14:30–15:00.
    expect(
      ours.map((s: { startDate: string; coachId: string }) => [s.startDate, s.coachId]),
    ).toEqual([
      ['2027-04-11T12:00:00.000Z', a.coach.id],
      ['2027-04-11T12:15:00.000Z', a.coach.id],
      ['2027-04-11T12:30:00.000Z', b.coach.id],
      ['2027-04-11T12:45:00.000Z', b.coach.id],
      ['2027-04-11T13:00:00.000Z', b.coach.id],
    ]);
    const client2 = await api.call('GET', '/api/client/initial_appointment_slots', {
      as: admin,
      query: window,
    });
    expect(client2.body).toEqual(pooled.body);

    // Every coach's slots: one entry per coach and start, the non-pooled coach included.
    const all = await api.call('GET', '/api/admin/calendar/available_slots', {
      as: admin,
      query: window,
    });
    const byCoach = (id: string) =>
      all.body.slots
        .filter((s: { coachId: string }) => s.coachId === id)
        .map((s: { startDate: string }) => s.startDate);
    expect(byCoach(notPooled.coach.id)).toEqual(grid('2027-04-11T14:00:00.000Z', 3));
    expect(byCoach(b.coach.id)).toEqual(grid('2027-04-11T12:30:00.000Z', 3));
  });

  it('lets coaches see only their own calendar', async () => {
    clock.set('2027-04-01T08:00:00Z');
    const day = { startDay: '2027-04-18', startTime: '10:00', endTime: '11:00' };
    const coach = await api.signIn('COACH');
    const own = await api.call('POST', '/api/availability', {
      as: coach,
      body: { coachId: coach.coachId, ...day },
    });
    expectStatus(own, 201);
    const other = await coachWithAvailability(api, admin, day);
    const window = {
      startDate: '2027-04-18T00:00:00Z',
      endDate: '2027-04-19T00:00:00Z',
      duration: 30,
    };

    expectStatus(
      await coachSlots(api, coach, coach.coachId!, window.startDate, window.endDate),
      200,
    );
    expectProblem(
      await coachSlots(api, coach, other.coach.id, window.startDate, window.endDate),
      404,
    );
    expectProblem(
      await api.call('GET', '/api/admin/calendar/available_slots/initial-meetings', {
        as: coach,
        query: window,
      }),
      404,
    );
    const all = await api.call('GET', '/api/admin/calendar/available_slots', {
      as: coach,
      query: window,
    });
    expectStatus(all, 200);
    expect(new Set(all.body.slots.map((s: { coachId: string }) => s.coachId))).toEqual(
      new Set([coach.coachId]),
    );
    expect(all.body.slots).toHaveLength(3);
  });
});

describe('the compact form', () => {
  it('carries exactly the slots of the full form, a fraction of its size, on every slot call', async () => {
    clock.set('2027-10-01T08:00:00Z');
    // Three pooled coaches whose hours overlap, over the October change (2027-10-31 has 25
    // hours): the pool hands starts to different coaches within a day.
    const hours = { startDay: '2027-10-25', recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU' };
    const a = await coachWithAvailability(api, admin, {
      ...hours,
      startTime: '08:00',
      endTime: '12:00',
    });
    const b = await coachWithAvailability(api, admin, {
      ...hours,
      startTime: '10:00',
      endTime: '15:00',
    });
    await coachWithAvailability(api, admin, { ...hours, startTime: '14:00', endTime: '18:00' });
    const client = await newClient(api, admin);
    expectStatus(
      await bookAppointment(api, admin, {
        clientId: client.id,
        coachId: a.coach.id,
        startDate: '2027-10-29T08:00:00.000Z',
      }),
      201,
    );
    const window = {
      startDate: '2027-10-25T00:00:00+02:00',
      endDate: '2027-11-02T00:00:00+01:00',
      duration: 45,
    };
    for (const path of [
      '/api/admin/calendar/available_slots',
      '/api/admin/calendar/available_slots/initial-meetings',
      `/api/admin/calendar/available_slots/${b.coach.id}`,
      '/api/client/initial_appointment_slots',
    ]) {
      const full = await api.call('GET', path, { as: admin, query: window });
      const compact = await api.call('GET', path, {
        as: admin,
        query: { ...window, form: 'compact' },
      });
      const asked = await api.call('GET', path, { as: admin, query: { ...window, form: 'full' } });
      expectStatus(full, 200);
      expectStatus(compact, 200);
      expect(asked.body, path).toEqual(full.body);
      expect(full.body.slots.length, path).toBeGreaterThan(20);
      expect(expandCompactSlots(compact.body), path).toEqual(full.body.slots);
      expect(compact.body.durationMinutes).toBe(45);
      const ids = compact.body.coaches.map((c: { id: string }) => c.id);
      expect(new Set(ids).size, path).toBe(ids.length);
      // Days in Berlin: the 31st (25 hours long) starts at 00:00 CEST, 22:00 UTC the day before.
      const dates = compact.body.days.map((d: { date: string }) => d.date);
      expect(dates, path).toEqual([...dates].sort());
      const last = compact.body.days.find((d: { date: string }) => d.date === '2027-10-31');
      expect(last?.start, path).toBe('2027-10-30T22:00:00.000Z');
      const bytes = (body: unknown) => Buffer.byteLength(JSON.stringify(body));
      expect(bytes(compact.body) * 8, path).toBeLessThan(bytes(full.body));
    }
  });

  it('answers the compact form to a coach without a coach record too', async () => {
    const coach = await api.signIn('COACH');
    await api.database.db.update(users).set({ coachId: null }).where(eq(users.id, coach.userId));
    const res = await api.call('GET', '/api/admin/calendar/available_slots', {
      as: coach,
      query: {
        startDate: '2027-03-28T00:00:00Z',
        endDate: '2027-03-29T00:00:00Z',
        duration: 30,
        form: 'compact',
      },
    });
    expectStatus(res, 200);
    expect(res.body).toEqual({
      timeZone: 'Europe/Berlin',
      durationMinutes: 30,
      coaches: [],
      days: [],
    });
  });
});

describe('bad input', () => {
  const full = { startDate: '2027-03-28T00:00:00Z', endDate: '2027-03-29T00:00:00Z', duration: 30 };
  const paths = [
    '/api/admin/calendar/available_slots',
    '/api/admin/calendar/available_slots/initial-meetings',
    '/api/client/initial_appointment_slots',
  ];
  it.each(paths)('%s answers 400 naming a missing startDate, endDate or duration', async (path) => {
    for (const missing of ['startDate', 'endDate', 'duration'] as const) {
      const query: Record<string, string | number> = { ...full };
      delete query[missing];
      expectFieldError(await api.call('GET', path, { as: admin, query }), missing);
    }
    expectFieldError(
      await api.call('GET', path, {
        as: admin,
        query: { ...full, endDate: '2027-06-28T00:00:00Z' },
      }),
      'endDate',
    );
    expectFieldError(
      await api.call('GET', path, { as: admin, query: { ...full, endDate: full.startDate } }),
      'endDate',
    );
    expectStatus(await api.call('GET', path, { as: admin, query: full }), 200);
    for (const form of ['wide', '', 'COMPACT']) {
      expectFieldError(
        await api.call('GET', path, { as: admin, query: { ...full, form } }),
        'form',
      );
    }
    expectStatus(
      await api.call('GET', path, { as: admin, query: { ...full, form: 'compact' } }),
      200,
    );
  });

  it('answers 404 for an unknown coach calendar', async () => {
    expectProblem(
      await coachSlots(
        api,
        admin,
        '6f1c2d3e-4b5a-4c6d-8e7f-001122334455',
        full.startDate,
        full.endDate,
      ),
      404,
    );
  });
});

describe('a repeated slot request (the slot cache)', () => {
  const day = ['2027-03-28T00:00:00Z', '2027-03-29T00:00:00Z'] as const;

  it('follows writes that bypass this server, coach edits, and the clock', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const { coach } = await coachWithAvailability(api, admin, SUNDAYS_09_12);
    const first = await coachSlots(api, admin, coach.id, ...day);
    expect(startsOf(first.body)).toEqual(grid('2027-03-28T07:00:00.000Z', 9));
    // The same request again: the same answer.
    expect((await coachSlots(api, admin, coach.id, ...day)).body).toEqual(first.body);

    // Another server instance (here: plain SQL) blocks 10:00–12:00 Berlin.
    await api.database.db.execute(sql`
      INSERT INTO availabilities (coach_id, kind, start_day, start_time, end_time, series_start)
      VALUES (${coach.id}::uuid, 'blocker', '2027-03-28', '10:00', '12:00', '2027-03-28T08:00:00Z')`);
    expect(startsOf((await coachSlots(api, admin, coach.id, ...day)).body)).toEqual(
      grid('2027-03-28T07:00:00.000Z', 1),
    );

    // A renamed coach shows under the new name at once.
    await api.database.db
      .update(coaches)
      .set({ lastName: 'Neumann' })
      .where(eq(coaches.id, coach.id));
    const renamed = await coachSlots(api, admin, coach.id, ...day);
    expect(renamed.body.slots[0].coach.lastName).toBe('Neumann');

    // The client's notice cuts what the clock passed, without a change to the calendar.
    await coachWithAvailability(api, admin, SUNDAYS_09_12, { takesInitialAppointments: true });
    const client = { startDate: day[0], endDate: day[1], duration: 60 };
    const ask = async () =>
      startsOf(
        (
          await api.call('GET', '/api/client/initial_appointment_slots', {
            as: admin,
            query: client,
          })
        ).body,
      );
    expect((await ask())[0]).toBe('2027-03-28T07:00:00.000Z');
    clock.set('2027-03-27T07:30:00Z'); // 24 h notice: 07:30Z on the 28th is the earliest start
    expect((await ask())[0]).toBe('2027-03-28T07:30:00.000Z');

    // A deactivated coach leaves the calendar.
    await api.database.db.update(coaches).set({ active: false }).where(eq(coaches.id, coach.id));
    expect((await coachSlots(api, admin, coach.id, ...day)).body.slots).toEqual([]);
  });
});
