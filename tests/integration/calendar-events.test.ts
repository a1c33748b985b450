import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../support/api';
import {
  bookAppointment,
  type Caller,
  expectFieldError,
  expectStatus,
  newClient,
  startApi,
} from './fixtures';
import { coachWithAvailability, testClock } from './scheduling-support';

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

// Easter 2027: Good Friday 26 March, Easter Monday 29 March (public holidays in Berlin).
const WINDOW = { startDate: '2027-03-25T23:00:00Z', endDate: '2027-03-30T22:00:00Z' };
const events = (as: Caller, query: Record<string, string | boolean>) =>
  api.call('GET', '/api/calendar/events', { as, query: { ...WINDOW, ...query } });

type Event = {
  id: string;
  kind: string;
  startDate: string;
  endDate: string;
  title: string;
  coachId: string | null;
};
const brief = (list: Event[]) => list.map((e) => [e.kind, e.startDate, e.title]);

describe('GET /calendar/events', () => {
  it('merges appointments, availability occurrences, blockers and public holidays', async () => {
    const { coach, availability } = await coachWithAvailability(api, admin, {
      startDay: '2027-03-26',
      startTime: '09:00',
      endTime: '12:00',
      recurrence: 'FREQ=WEEKLY;BYDAY=FR,MO',
    });
    expectStatus(
      await api.call('POST', '/api/availability', {
        as: admin,
        body: {
          coachId: coach.id,
          kind: 'blocker',
          startDay: '2027-03-29',
          startTime: '11:00',
          endTime: '12:00',
          note: 'Teamsitzung',
        },
      }),
      201,
    );
    const client = await newClient(api, admin, { firstName: 'Berta', lastName: 'Beispiel' });
    const booked = await bookAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: '2027-03-29T07:00:00.000Z',
      minutes: 30,
      // Easter Monday: staff book it only on purpose.
      availabilityOverrideReason: 'Ausnahme: Feiertag',
    });
    expectStatus(booked, 201);

    const res = await events(admin, { coachId: coach.id });
    expectStatus(res, 200);
    expect(brief(res.body.events)).toEqual([
      ['holiday', '2027-03-25T23:00:00.000Z', 'Karfreitag'],
      ['availability', '2027-03-26T08:00:00.000Z', 'Verfügbar'],
      ['holiday', '2027-03-28T22:00:00.000Z', 'Ostermontag'],
      ['availability', '2027-03-29T07:00:00.000Z', 'Verfügbar'],
      ['appointment', '2027-03-29T07:00:00.000Z', 'Berta Beispiel'],
      ['blocker', '2027-03-29T09:00:00.000Z', 'Teamsitzung'],
    ]);
    const [appointment] = res.body.events.filter((e: Event) => e.kind === 'appointment');
    expect(appointment).toMatchObject({
      id: booked.body.id,
      appointmentId: booked.body.id,
      coachId: coach.id,
      appointmentType: 'followup',
    });
    const occurrence = res.body.events.find((e: Event) => e.kind === 'availability');
    expect(occurrence).toMatchObject({
      id: `${availability.id}:2027-03-26`,
      availabilityId: availability.id,
      occurrenceDate: '2027-03-26',
    });
    const holiday = res.body.events[0];
    expect(holiday).toMatchObject({
      id: 'holiday:2027-03-26',
      coachId: null,
      endDate: '2027-03-26T23:00:00.000Z',
    });

    // excludeSpecial hides the holidays, nothing else.
    const plain = await events(admin, { coachId: coach.id, excludeSpecial: true });
    expect(brief(plain.body.events)).toEqual(
      brief(res.body.events).filter(([kind]) => kind !== 'holiday'),
    );

    // A cancelled appointment leaves the calendar.
    expectStatus(
      await api.call('DELETE', `/api/appointment/${booked.body.id}`, { as: admin }),
      200,
    );
    const after = await events(admin, { coachId: coach.id, excludeSpecial: true });
    expect(after.body.events.map((e: Event) => e.kind)).toEqual([
      'availability',
      'availability',
      'blocker',
    ]);
  });

  it('shows the holidays of the configured federal state', async () => {
    const bavaria = await createApi({ now: clock.now, env: { HOLIDAY_STATE: 'BY' } });
    try {
      const staff = await bavaria.signIn('ADMIN');
      // 1 November (Allerheiligen) is a holiday in Bavaria, not in Berlin.
      const window = { startDate: '2027-10-31T23:00:00Z', endDate: '2027-11-01T23:00:00Z' };
      const by = await bavaria.call('GET', '/api/calendar/events', { as: staff, query: window });
      expect(brief(by.body.events)).toEqual([
        ['holiday', '2027-10-31T23:00:00.000Z', 'Allerheiligen'],
      ]);
      const be = await api.call('GET', '/api/calendar/events', { as: admin, query: window });
      expect(be.body.events.filter((e: Event) => e.kind === 'holiday')).toEqual([]);
    } finally {
      await bavaria.close();
    }
  });

  it('shows coaches only their own calendar', async () => {
    const coach = await api.signIn('COACH');
    const own = await api.call('POST', '/api/availability', {
      as: coach,
      body: {
        coachId: coach.coachId,
        startDay: '2027-03-26',
        startTime: '14:00',
        endTime: '15:00',
      },
    });
    expectStatus(own, 201);
    const other = await coachWithAvailability(api, admin, {
      startDay: '2027-03-26',
      startTime: '14:00',
      endTime: '15:00',
    });

    const mine = await events(coach, { excludeSpecial: true });
    expect(mine.body.events.map((e: Event) => e.coachId)).toEqual([coach.coachId]);
    const asked = await events(coach, { coachId: other.coach.id, excludeSpecial: true });
    expect(asked.body.events).toEqual([]);
    // Staff see everyone's.
    const all = await events(admin, { excludeSpecial: true });
    const coachesSeen = new Set(all.body.events.map((e: Event) => e.coachId));
    expect(coachesSeen.has(coach.coachId)).toBe(true);
    expect(coachesSeen.has(other.coach.id)).toBe(true);
  });

  it('answers 400 naming the window fields', async () => {
    expectFieldError(
      await api.call('GET', '/api/calendar/events', {
        as: admin,
        query: { endDate: WINDOW.endDate },
      }),
      'startDate',
    );
    expectFieldError(
      await api.call('GET', '/api/calendar/events', {
        as: admin,
        query: { startDate: WINDOW.startDate, endDate: '2027-12-01T00:00:00Z' },
      }),
      'endDate',
    );
  });
});
