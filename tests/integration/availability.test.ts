import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../support/api';
import {
  type Caller,
  expectFieldError,
  expectProblem,
  expectStatus,
  newCoach,
  SOME_ID,
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

const MON_WED = {
  startDay: '2027-03-22',
  startTime: '09:00',
  endTime: '12:00',
  recurrence: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4',
  note: 'Sprechstunde',
};

const list = (as: Caller, query: Record<string, string>) =>
  api.call('GET', '/api/availability', { as, query });

describe('recurring availability', () => {
  it('expands a weekly rule in Berlin wall time, across the change to summer time', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const { coach, availability } = await coachWithAvailability(api, admin, MON_WED);
    expect(availability).toMatchObject({
      coachId: coach.id,
      coach: { id: coach.id },
      kind: 'available',
      timeZone: 'Europe/Berlin',
      startDay: '2027-03-22',
      startTime: '09:00',
      endTime: '12:00',
      recurrence: MON_WED.recurrence,
      note: 'Sprechstunde',
      overrides: [],
    });
    // COUNT=4: Mon 22, Wed 24 (CET), Mon 29, Wed 31 (CEST) March.
    expect(availability.occurrences).toEqual([
      {
        occurrenceDate: '2027-03-22',
        startDate: '2027-03-22T08:00:00.000Z',
        endDate: '2027-03-22T11:00:00.000Z',
        modified: false,
      },
      {
        occurrenceDate: '2027-03-24',
        startDate: '2027-03-24T08:00:00.000Z',
        endDate: '2027-03-24T11:00:00.000Z',
        modified: false,
      },
      {
        occurrenceDate: '2027-03-29',
        startDate: '2027-03-29T07:00:00.000Z',
        endDate: '2027-03-29T10:00:00.000Z',
        modified: false,
      },
      {
        occurrenceDate: '2027-03-31',
        startDate: '2027-03-31T07:00:00.000Z',
        endDate: '2027-03-31T10:00:00.000Z',
        modified: false,
      },
    ]);

    const window = await list(admin, {
      startDate: '2027-03-24T00:00:00Z',
      endDate: '2027-03-30T00:00:00Z',
      coachId: coach.id,
    });
    expectStatus(window, 200);
    expect(window.body.availabilities).toHaveLength(1);
    expect(
      window.body.availabilities[0].occurrences.map(
        (o: { occurrenceDate: string }) => o.occurrenceDate,
      ),
    ).toEqual(['2027-03-24', '2027-03-29']);
    // After the last occurrence nothing is listed.
    const later = await list(admin, {
      startDate: '2027-04-01T00:00:00Z',
      endDate: '2027-05-01T00:00:00Z',
      coachId: coach.id,
    });
    expect(later.body.availabilities).toEqual([]);
  });

  it('supports UNTIL (inclusive, local day) and INTERVAL', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const { availability } = await coachWithAvailability(api, admin, {
      startDay: '2027-03-01',
      startTime: '13:00',
      endTime: '14:00',
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;UNTIL=20270412',
    });
    expect(
      availability.occurrences.map((o: { occurrenceDate: string }) => o.occurrenceDate),
    ).toEqual(['2027-03-01', '2027-03-15', '2027-03-29', '2027-04-12']);
  });
});

describe('occurrence exceptions', () => {
  it('moves, shortens and removes single occurrences; slots follow', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const { coach, availability } = await coachWithAvailability(api, admin, MON_WED);
    const url = `/api/availability/${availability.id}/occurrence`;

    // Move Wednesday 24 March to the afternoon (14:00–15:00 CET).
    const moved = await api.call('PUT', url, {
      as: admin,
      body: {
        occurrenceDate: '2027-03-24',
        startDate: '2027-03-24T13:00:00Z',
        endDate: '2027-03-24T14:00:00Z',
      },
    });
    expectStatus(moved, 200);
    expect(moved.body.occurrences[1]).toEqual({
      occurrenceDate: '2027-03-24',
      startDate: '2027-03-24T13:00:00.000Z',
      endDate: '2027-03-24T14:00:00.000Z',
      modified: true,
    });
    // Shorten Monday 29 March to 09:00–10:00 CEST.
    const shortened = await api.call('PUT', url, {
      as: admin,
      body: {
        occurrenceDate: '2027-03-29',
        startDate: '2027-03-29T07:00:00Z',
        endDate: '2027-03-29T08:00:00Z',
      },
    });
    expectStatus(shortened, 200);
    // Remove Wednesday 31 March.
    expectStatus(
      await api.call('DELETE', url, { as: admin, query: { occurrenceDate: '2027-03-31' } }),
      204,
    );

    const got = await api.call('GET', `/api/availability/${availability.id}`, { as: admin });
    expectStatus(got, 200);
    expect(
      got.body.occurrences.map(
        (o: { occurrenceDate: string; startDate: string; endDate: string }) => [
          o.occurrenceDate,
          o.startDate,
          o.endDate,
        ],
      ),
    ).toEqual([
      ['2027-03-22', '2027-03-22T08:00:00.000Z', '2027-03-22T11:00:00.000Z'],
      ['2027-03-24', '2027-03-24T13:00:00.000Z', '2027-03-24T14:00:00.000Z'],
      ['2027-03-29', '2027-03-29T07:00:00.000Z', '2027-03-29T08:00:00.000Z'],
    ]);
    expect(got.body.overrides).toEqual([
      {
        occurrenceDate: '2027-03-24',
        cancelled: false,
        startDate: '2027-03-24T13:00:00.000Z',
        endDate: '2027-03-24T14:00:00.000Z',
      },
      {
        occurrenceDate: '2027-03-29',
        cancelled: false,
        startDate: '2027-03-29T07:00:00.000Z',
        endDate: '2027-03-29T08:00:00.000Z',
      },
      { occurrenceDate: '2027-03-31', cancelled: true, startDate: null, endDate: null },
    ]);

    const slots = await coachSlots(
      api,
      admin,
      coach.id,
      '2027-03-24T00:00:00Z',
      '2027-04-01T00:00:00Z',
    );
    // 29.03.2027 is Easter Monday: the moved occurrence stays in the availability but offers no slot.
    expect(startsOf(slots.body)).toEqual(['2027-03-24T13:00:00.000Z']);
  });

  it('answers 404 for a date the rule does not generate, and 400 for a bad range', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const { availability } = await coachWithAvailability(api, admin, MON_WED);
    const url = `/api/availability/${availability.id}/occurrence`;
    expectProblem(
      await api.call('PUT', url, {
        as: admin,
        body: {
          occurrenceDate: '2027-03-23',
          startDate: '2027-03-23T08:00:00Z',
          endDate: '2027-03-23T09:00:00Z',
        },
      }),
      404,
    );
    expectProblem(
      await api.call('DELETE', url, { as: admin, query: { occurrenceDate: '2027-04-05' } }),
      404,
    );
    expectFieldError(
      await api.call('PUT', url, {
        as: admin,
        body: {
          occurrenceDate: '2027-03-22',
          startDate: '2027-03-22T09:00:00Z',
          endDate: '2027-03-22T08:00:00Z',
        },
      }),
      'endDate',
    );
    expectFieldError(await api.call('DELETE', url, { as: admin }), 'occurrenceDate');
    const got = await api.call('GET', `/api/availability/${availability.id}`, { as: admin });
    expect(got.body.overrides).toEqual([]);
  });

  it('drops overrides of dates the changed rule no longer generates', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const { availability } = await coachWithAvailability(api, admin, MON_WED);
    const url = `/api/availability/${availability.id}/occurrence`;
    expectStatus(
      await api.call('DELETE', url, { as: admin, query: { occurrenceDate: '2027-03-24' } }),
      204,
    );
    expectStatus(
      await api.call('DELETE', url, { as: admin, query: { occurrenceDate: '2027-03-29' } }),
      204,
    );
    const updated = await api.call('PUT', `/api/availability/${availability.id}`, {
      as: admin,
      body: { recurrence: 'FREQ=WEEKLY;BYDAY=MO;COUNT=3', endTime: '11:00' },
    });
    expectStatus(updated, 200);
    expect(updated.body.overrides.map((o: { occurrenceDate: string }) => o.occurrenceDate)).toEqual(
      ['2027-03-29'],
    );
    expect(
      updated.body.occurrences.map((o: { occurrenceDate: string; endDate: string }) => [
        o.occurrenceDate,
        o.endDate,
      ]),
    ).toEqual([
      ['2027-03-22', '2027-03-22T10:00:00.000Z'],
      ['2027-04-05', '2027-04-05T09:00:00.000Z'],
    ]);
  });
});

describe('validation', () => {
  it('refuses bad times and rules with 400 naming the field, creating nothing', async () => {
    const coach = await newCoach(api, admin);
    const base = {
      coachId: coach.id,
      startDay: '2027-03-22',
      startTime: '09:00',
      endTime: '12:00',
    };
    const post = (body: Record<string, unknown>) =>
      api.call('POST', '/api/availability', { as: admin, body });
    expectFieldError(await post({ ...base, endTime: '09:00' }), 'endTime');
    expectFieldError(await post({ ...base, endTime: '25:00' }), 'endTime');
    expectFieldError(await post({ ...base, recurrence: 'FREQ=DAILY' }), 'recurrence');
    expectFieldError(
      await post({ ...base, recurrence: 'FREQ=WEEKLY;COUNT=3;UNTIL=20270601' }),
      'recurrence',
    );
    expectFieldError(
      await post({ ...base, recurrence: 'FREQ=WEEKLY;UNTIL=20270101' }),
      'recurrence',
    );
    expectFieldError(await post({ ...base, coachId: SOME_ID }), 'coachId');
    expectFieldError(
      await list(admin, { startDate: '2027-01-01T00:00:00Z', endDate: '2028-03-01T00:00:00Z' }),
      'endDate',
    );
    const all = await list(admin, {
      startDate: '2027-01-01T00:00:00Z',
      endDate: '2027-12-31T00:00:00Z',
      coachId: coach.id,
    });
    expect(all.body.availabilities).toEqual([]);
  });
});

describe('coach scoping', () => {
  it('lets coaches create, see and change only their own availability', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const coach = await api.signIn('COACH');
    const { coach: other, availability: others } = await coachWithAvailability(api, admin, MON_WED);
    const own = await api.call('POST', '/api/availability', {
      as: coach,
      body: { ...MON_WED, coachId: coach.coachId },
    });
    expectStatus(own, 201);
    expectProblem(
      await api.call('POST', '/api/availability', {
        as: coach,
        body: { ...MON_WED, coachId: other.id },
      }),
      403,
      'forbidden_scope',
    );
    const seen = await list(coach, {
      startDate: '2027-03-01T00:00:00Z',
      endDate: '2027-04-30T00:00:00Z',
    });
    expect(seen.body.availabilities.map((a: { id: string }) => a.id)).toEqual([own.body.id]);
    const asked = await list(coach, {
      startDate: '2027-03-01T00:00:00Z',
      endDate: '2027-04-30T00:00:00Z',
      coachId: other.id,
    });
    expect(asked.body.availabilities).toEqual([]);
    expectProblem(await api.call('GET', `/api/availability/${others.id}`, { as: coach }), 404);
    expectProblem(
      await api.call('PUT', `/api/availability/${others.id}`, { as: coach, body: { note: 'x' } }),
      404,
    );
    expectProblem(await api.call('DELETE', `/api/availability/${others.id}`, { as: coach }), 404);
    expectProblem(
      await api.call('DELETE', `/api/availability/${others.id}/occurrence`, {
        as: coach,
        query: { occurrenceDate: '2027-03-22' },
      }),
      404,
    );
    // The other coach's availability is untouched; the coach's own can be deleted.
    expectStatus(await api.call('GET', `/api/availability/${others.id}`, { as: admin }), 200);
    expectStatus(await api.call('DELETE', `/api/availability/${own.body.id}`, { as: coach }), 204);
    expectProblem(await api.call('GET', `/api/availability/${own.body.id}`, { as: coach }), 404);
  });
});
