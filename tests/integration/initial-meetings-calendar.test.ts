/**
 * The initial-meetings calendar for onboarding managers and admins: every pool coach's own free
 * initial slots (not the pooled one-per-start list clients see), the booked initial
 * appointments, the holidays without slots; coaches are refused, a bad window is a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { berlinDate } from '../../shared/time';
import type { Api } from '../support/api';
import {
  type Caller,
  expectProblem,
  expectStatus,
  newAppointment,
  newClient,
  startApi,
} from './fixtures';
import { coachSlots, coachWithAvailability, testClock } from './scheduling-support';

const clock = testClock('2027-11-01T08:00:00Z');
let api: Api;
let admin: Caller;
let manager: Caller;
let coach: Caller;

/** 23.12.2027 to 02.01.2028 in Berlin (winter time, UTC+1). */
const WINTER = { startDate: '2027-12-22T23:00:00Z', endDate: '2028-01-02T23:00:00Z' };
const DAILY = {
  startDay: '2027-12-23',
  startTime: '09:00',
  endTime: '12:00',
  recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU',
};

interface Answer {
  coaches: Array<{ id: string }>;
  slots: Array<{ startDate: string; coachId: string }>;
  events: Array<{
    kind: string;
    id: string;
    coachId: string | null;
    occurrenceDate: string | null;
  }>;
}

let first = '';
let second = '';
let outside = '';
let initialId = '';
let followupId = '';

beforeAll(async () => {
  ({
    api,
    callers: [admin, manager, coach],
  } = await startApi(
    { now: clock.now, env: { HOLIDAY_STATE: 'BE' } },
    'ADMIN',
    'ONBOARDING_MANAGER',
    'COACH',
  ));
  first = (await coachWithAvailability(api, admin, DAILY)).coach.id;
  second = (await coachWithAvailability(api, admin, DAILY)).coach.id;
  outside = (await coachWithAvailability(api, admin, DAILY, { takesInitialAppointments: false }))
    .coach.id;
  const client = await newClient(api, admin);
  // Monday 27.12.2027, 09:00 and Tuesday 28.12., 09:00 Berlin.
  initialId = (
    await newAppointment(api, admin, {
      clientId: client.id,
      coachId: first,
      startDate: '2027-12-27T08:00:00.000Z',
      appointmentType: 'initial',
    })
  ).id;
  followupId = (
    await newAppointment(api, admin, {
      clientId: client.id,
      coachId: first,
      startDate: '2027-12-28T08:00:00.000Z',
    })
  ).id;
});
afterAll(() => api.close());

const calendar = (as: Caller, query: Record<string, string> = WINTER) =>
  api.call('GET', '/api/admin/calendar/initial-meetings', { as, query });

describe('GET /admin/calendar/initial-meetings', () => {
  it('lists each pool coach’s free initial slots, off holidays and off their appointments', async () => {
    const res = await calendar(manager);
    expectStatus(res, 200);
    const body = res.body as Answer;
    const ours = new Set([first, second, outside]);
    expect(
      body.coaches
        .map((c) => c.id)
        .filter((id) => ours.has(id))
        .sort(),
    ).toEqual([first, second].sort());
    const slotsOf = (id: string) => body.slots.filter((s) => s.coachId === id);
    const starts = (id: string) => slotsOf(id).map((s) => s.startDate);
    // Per coach: both free coaches have the same start (the pooled list names only one).
    expect(starts(first)).toContain('2027-12-23T08:00:00.000Z');
    expect(starts(second)).toContain('2027-12-23T08:00:00.000Z');
    expect(slotsOf(outside)).toEqual([]);
    // No slot on 25.12., 26.12. or 01.01.
    const days = [...new Set(slotsOf(second).map((s) => berlinDate(s.startDate).toString()))];
    expect(days).not.toContain('2027-12-25');
    expect(days).not.toContain('2027-12-26');
    expect(days).not.toContain('2028-01-01');
    expect(days).toContain('2027-12-27');
    // The booked times are not free, for an initial appointment or any other.
    expect(starts(first)).not.toContain('2027-12-27T08:00:00.000Z');
    expect(starts(first)).not.toContain('2027-12-28T08:00:00.000Z');
    expect(starts(second)).toContain('2027-12-27T08:00:00.000Z');

    const pooled = await coachSlots(
      api,
      admin,
      'initial-meetings',
      WINTER.startDate,
      WINTER.endDate,
      30,
    );
    const pooledAt = (pooled.body as Answer).slots.filter(
      (s) => s.startDate === '2027-12-23T08:00:00.000Z' && ours.has(s.coachId),
    );
    expect(pooledAt).toHaveLength(1);
  });

  it('shows the booked initial appointments (not the others) and the holidays', async () => {
    const body = (await calendar(admin)).body as Answer;
    const appointments = body.events.filter((e) => e.kind === 'appointment');
    expect(appointments.map((e) => e.id)).toContain(initialId);
    expect(appointments.map((e) => e.id)).not.toContain(followupId);
    expect(appointments.find((e) => e.id === initialId)!.coachId).toBe(first);
    expect(body.events.filter((e) => e.kind === 'holiday').map((e) => e.occurrenceDate)).toEqual([
      '2027-12-25',
      '2027-12-26',
      '2028-01-01',
    ]);
  });

  it('refuses coaches and names a bad window', async () => {
    expectProblem(await calendar(coach), 403);
    const backwards = await calendar(manager, {
      startDate: WINTER.endDate,
      endDate: WINTER.startDate,
    });
    expectProblem(backwards, 400);
    expect(JSON.stringify(backwards.body)).toContain('endDate');
    expectProblem(await calendar(manager, { startDate: WINTER.startDate }), 400);
  });
});
