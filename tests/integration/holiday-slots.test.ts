/**
 * No slot falls on a public holiday of the practice's federal state (HOLIDAY_STATE): not for
 * clients (booking and reschedule), not in the staff pickers; staff move an appointment onto
 * one only with a reason, which the event records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { berlinDate } from '../../shared/time';
import { createApi, type Api } from '../support/api';
import {
  bookAppointment,
  type Caller,
  expectProblem,
  expectStatus,
  newClient,
  startApi,
} from './fixtures';
import { coachSlots, coachWithAvailability, signInClient, testClock } from './scheduling-support';

const clock = testClock('2027-11-01T08:00:00Z');
let api: Api;
let admin: Caller;

beforeAll(async () => {
  ({
    api,
    callers: [admin],
  } = await startApi({ now: clock.now, env: { HOLIDAY_STATE: 'BE' } }, 'ADMIN'));
});
afterAll(() => api.close());

/** Berlin days (YYYY-MM-DD) that have at least one slot. */
const slotDays = (body: { slots: Array<{ startDate: string }> }) => [
  ...new Set(body.slots.map((s) => berlinDate(s.startDate).toString())),
];

/** 23.12.2027 to 02.01.2028 in Berlin (winter time, UTC+1). */
const WINTER = { startDate: '2027-12-22T23:00:00Z', endDate: '2028-01-02T23:00:00Z' };
const WORKDAYS_AROUND_NEW_YEAR = [
  '2027-12-23',
  '2027-12-24',
  '2027-12-27',
  '2027-12-28',
  '2027-12-29',
  '2027-12-30',
  '2027-12-31',
  '2028-01-02',
];
const DAILY_FROM_23_12 = {
  startDay: '2027-12-23',
  startTime: '09:00',
  endTime: '12:00',
  recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU',
};

describe('slots around Christmas and New Year (Berlin)', () => {
  let coachId = '';
  beforeAll(async () => {
    const { coach } = await coachWithAvailability(api, admin, DAILY_FROM_23_12);
    coachId = coach.id;
  });

  it('offers no slot on 25.12., 26.12. or 01.01. in any staff picker', async () => {
    const own = await coachSlots(api, admin, coachId, WINTER.startDate, WINTER.endDate);
    expectStatus(own, 200);
    expect(slotDays(own.body)).toEqual(WORKDAYS_AROUND_NEW_YEAR);
    const pool = await coachSlots(
      api,
      admin,
      'initial-meetings',
      WINTER.startDate,
      WINTER.endDate,
      30,
    );
    expect(slotDays(pool.body)).toEqual(WORKDAYS_AROUND_NEW_YEAR);
    const all = await api.call('GET', '/api/admin/calendar/available_slots', {
      as: admin,
      query: { ...WINTER, duration: 30 },
    });
    expectStatus(all, 200);
    expect(slotDays(all.body)).toEqual(WORKDAYS_AROUND_NEW_YEAR);
  });

  it('offers clients no slot on a holiday and refuses to book one; a reschedule offers none either', async () => {
    const client = await signInClient(api);
    const offered = await api.call('GET', '/api/client/initial_appointment_slots', {
      as: client,
      query: { ...WINTER, duration: 30 },
    });
    expectStatus(offered, 200);
    expect(slotDays(offered.body)).toEqual(WORKDAYS_AROUND_NEW_YEAR);

    // 25.12. 10:00 Berlin: the coach's availability says free, the holiday says no.
    const christmas = await api.call('POST', '/api/client/book_initial_appointment', {
      as: client,
      body: { startDate: '2027-12-25T09:00:00.000Z' },
    });
    expectProblem(christmas, 409, 'slot_taken');
    const booked = await api.call('POST', '/api/client/book_initial_appointment', {
      as: client,
      body: { startDate: '2027-12-23T09:00:00.000Z' },
    });
    expectStatus(booked, 201);
    const moving = await api.call('GET', '/api/client/initial_appointment_slots', {
      as: client,
      query: { ...WINTER, duration: 30, rescheduleOf: booked.body.id },
    });
    expectStatus(moving, 200);
    expect(slotDays(moving.body)).toEqual(WORKDAYS_AROUND_NEW_YEAR);
    expectProblem(
      await api.call('PUT', `/api/client/initial_appointment/${booked.body.id}`, {
        as: client,
        body: { startDate: '2028-01-01T09:00:00.000Z' },
      }),
      409,
      'slot_taken',
    );
  });

  it('lets staff move an appointment onto a holiday only with a reason, which the event records', async () => {
    const client = await newClient(api, admin);
    const created = await bookAppointment(api, admin, {
      clientId: client.id,
      coachId,
      startDate: '2027-12-24T08:00:00.000Z',
    });
    expectStatus(created, 201);
    const id = created.body.id;
    const christmas = {
      startDate: '2027-12-26T09:00:00.000Z',
      endDate: '2027-12-26T09:30:00.000Z',
    };
    const refused = await api.call('PUT', `/api/appointment/${id}`, { as: admin, body: christmas });
    expectProblem(refused, 409, 'public_holiday');
    expect(refused.body.detail).toContain('2. Weihnachtstag');

    const moved = await api.call('PUT', `/api/appointment/${id}`, {
      as: admin,
      body: { ...christmas, availabilityOverrideReason: 'Klient:in ist nur an Feiertagen frei' },
    });
    expectStatus(moved, 200);
    expect(moved.body).toMatchObject(christmas);
    const events = await api.call('GET', '/api/businessevents', {
      as: admin,
      query: { appointmentId: id, pageSize: 100 },
    });
    const update = events.body.businessEvents.find((e: any) => e.action === 'appointment.updated');
    expect(update.changes.availabilityOverride).toEqual({
      reason: 'Klient:in ist nur an Feiertagen frei',
      holiday: { date: '2027-12-26', name: '2. Weihnachtstag' },
    });
  });

  it('refuses a staff booking onto a holiday without a reason, records it with one, and records a past session as it was without a reason and recorded with one; a past session is recorded as it was', async () => {
    const client = await newClient(api, admin);
    const newYear = {
      clientId: client.id,
      coachId,
      startDate: '2028-01-01T10:00:00.000Z',
      availabilityOverrideReason: undefined,
    };
    const refused = await bookAppointment(api, admin, newYear);
    expectProblem(refused, 409, 'public_holiday');
    expect(refused.body.detail).toContain('Neujahr');
    const blank = await bookAppointment(api, admin, {
      ...newYear,
      availabilityOverrideReason: '  ',
    });
    expectProblem(blank, 400, 'validation_failed');
    expect(blank.body.errors).toEqual([
      expect.objectContaining({ field: 'availabilityOverrideReason', code: 'value_missing' }),
    ]);

    const reason = 'Ausnahme: Feiertag, auf Wunsch der Klientin';
    const booked = await bookAppointment(api, admin, {
      ...newYear,
      availabilityOverrideReason: reason,
    });
    expectStatus(booked, 201);
    const events = await api.call('GET', '/api/businessevents', {
      as: admin,
      query: { appointmentId: booked.body.id, pageSize: 100 },
    });
    const created = events.body.businessEvents.find((e: any) => e.action === 'appointment.created');
    expect(created.changes.availabilityOverride).toEqual({
      reason,
      holiday: { date: '2028-01-01', name: 'Neujahr' },
    });

    // 03.10.2027 (Tag der Deutschen Einheit) lies before the test clock: recording it needs no reason.
    const past = await bookAppointment(api, admin, {
      clientId: client.id,
      coachId,
      startDate: '2027-10-03T09:00:00.000Z',
      availabilityOverrideReason: undefined,
    });
    expectStatus(past, 201);
  });
});

describe('a holiday that only some states have', () => {
  it('offers no slot on Fronleichnam (27.05.2027) in Bavaria, but does in Berlin', async () => {
    clock.set('2027-05-01T08:00:00Z');
    const bavaria = await createApi({ now: clock.now, env: { HOLIDAY_STATE: 'BY' } });
    try {
      const staff = await bavaria.signIn('ADMIN');
      const week = {
        startDay: '2027-05-24',
        startTime: '09:00',
        endTime: '12:00',
        recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU',
      };
      // 26.05. to 28.05. in Berlin (summer time, UTC+2).
      const window = ['2027-05-25T22:00:00Z', '2027-05-28T22:00:00Z'] as const;
      const by = await coachWithAvailability(bavaria, staff, week);
      const inBavaria = await coachSlots(bavaria, staff, by.coach.id, ...window);
      expect(slotDays(inBavaria.body)).toEqual(['2027-05-26', '2027-05-28']);
      const be = await coachWithAvailability(api, admin, week);
      const inBerlin = await coachSlots(api, admin, be.coach.id, ...window);
      expect(slotDays(inBerlin.body)).toEqual(['2027-05-26', '2027-05-27', '2027-05-28']);
    } finally {
      await bavaria.close();
      clock.set('2027-11-01T08:00:00Z');
    }
  });
});
