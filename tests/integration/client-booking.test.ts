import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { appointments, coaches } from '../../server/db/schema/index';
import { releaseExpiredHolds } from '../../server/features/appointments/client-booking';
import { expandCompactSlots } from '../../shared/compact-slots';
import type { Api } from '../support/api';
import {
  bookAppointment,
  type Caller,
  expectFieldError,
  expectProblem,
  expectStatus,
  newClient,
  SOME_ID,
  startApi,
} from './fixtures';
import {
  coachSlots,
  coachWithAvailability,
  signInClient,
  startsOf,
  testClock,
} from './scheduling-support';

const clock = testClock('2027-05-01T08:00:00Z');
let api: Api;
let admin: Caller;

beforeAll(async () => {
  ({
    api,
    callers: [admin],
  } = await startApi({ now: clock.now }, 'ADMIN'));
});
afterAll(() => api.close());

// Each test uses its own day so the pooled calendar of one test does not see the others'.
let dayCounter = 0;
let day = '';
beforeEach(() => {
  clock.set('2027-05-01T08:00:00Z');
  day = `2027-06-${String(1 + dayCounter++).padStart(2, '0')}`;
});
/** An instant on the test's day, given in Berlin summer time (UTC+2). */
const local = (hhmm: string) => new Date(`${day}T${hhmm}:00+02:00`).toISOString();

const book = (as: Caller, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.call('POST', '/api/client/book_initial_appointment', { as, body, headers });

async function poolCoach(startTime = '10:00', endTime = '12:00') {
  return (await coachWithAvailability(api, admin, { startDay: day, startTime, endTime })).coach;
}

async function liveOf(coachId: string) {
  return api.database.db
    .select()
    .from(appointments)
    .where(and(eq(appointments.coachId, coachId), isNull(appointments.cancelledAt)));
}

describe('POST /client/book_initial_appointment', () => {
  it('books a free slot of the initial-meetings calendar for the signed-in client', async () => {
    const coach = await poolCoach();
    const client = await signInClient(api);
    const res = await book(client, { startDate: local('10:30') });
    expectStatus(res, 201);
    expect(res.body).toMatchObject({
      startDate: local('10:30'),
      endDate: local('11:00'),
      appointmentType: 'initial',
      meetingType: 'jitsi',
      cancelledAt: null,
      coach: { id: coach.id, firstName: coach.firstName, lastName: coach.lastName },
      isProvisional: false,
    });
    expect(res.body).not.toHaveProperty('meetingCodeCoach');
    const [row] = await liveOf(coach.id);
    expect(row).toMatchObject({ clientId: client.clientId, appointmentType: 'initial' });
    // The slot is gone for the next client.
    const slots = await coachSlots(api, admin, coach.id, local('00:00'), local('23:59'), 30);
    expect(startsOf(slots.body)).not.toContain(local('10:30'));
    expect(startsOf(slots.body)).toContain(local('11:00'));
    // The client reads it back; another client cannot.
    expectStatus(
      await api.call('GET', `/api/client/initial_appointment/${res.body.id}`, { as: client }),
      200,
    );
    const stranger = await signInClient(api);
    expectProblem(
      await api.call('GET', `/api/client/initial_appointment/${res.body.id}`, { as: stranger }),
      404,
    );
  });

  it('picks the free coach with the fewest upcoming appointments', async () => {
    const busy = await poolCoach();
    const idle = await poolCoach();
    const other = await newClient(api, admin);
    // busy already has an appointment later that day.
    expectStatus(
      await bookAppointment(api, admin, {
        clientId: other.id,
        coachId: busy.id,
        startDate: local('11:30'),
      }),
      201,
    );
    const first = await book(await signInClient(api), { startDate: local('10:00') });
    expectStatus(first, 201);
    expect(first.body.coach.id).toBe(idle.id);
    // Now both have one; ties go by id, and a coach can be asked for by id.
    const second = await book(await signInClient(api), {
      startDate: local('10:00'),
      coachId: busy.id,
    });
    expectStatus(second, 201);
    expect(second.body.coach.id).toBe(busy.id);
    // Nobody is free at 10:00 any more.
    expectProblem(
      await book(await signInClient(api), { startDate: local('10:00') }),
      409,
      'slot_taken',
    );
  });

  it('accepts only free slots: not off the grid, not outside availability, not a coach outside the pool', async () => {
    const coach = await poolCoach();
    const client = await signInClient(api);
    expectProblem(await book(client, { startDate: local('10:05') }), 409, 'slot_taken');
    expectProblem(await book(client, { startDate: local('11:45') }), 409, 'slot_taken');
    expectProblem(await book(client, { startDate: local('09:00') }), 409, 'slot_taken');
    await api.database.db
      .update(coaches)
      .set({ takesInitialAppointments: false })
      .where(eq(coaches.id, coach.id));
    expectProblem(
      await book(client, { startDate: local('10:00'), coachId: coach.id }),
      409,
      'slot_taken',
    );
    expect(await liveOf(coach.id)).toEqual([]);
  });

  it('refuses a start within the minimum notice, and a second initial appointment', async () => {
    const coach = await poolCoach('08:00', '18:00');
    const client = await signInClient(api);
    clock.set(new Date(Date.parse(local('10:00')) - 23 * 3600_000).toISOString());
    expectProblem(await book(client, { startDate: local('10:00') }), 409, 'notice_period');
    expectStatus(await book(client, { startDate: local('11:00') }), 201);
    expectProblem(
      await book(client, { startDate: local('14:00') }),
      409,
      'initial_appointment_exists',
    );
    expect(await liveOf(coach.id)).toHaveLength(1);
  });

  it('answers a retry with the same Idempotency-Key with the first answer, booking once', async () => {
    // The test clock is months ahead of the real one: keys must age by the server's clock.
    clock.set(new Date(Date.parse(local('10:00')) - 48 * 3600_000).toISOString());
    const coach = await poolCoach();
    const client = await signInClient(api);
    const key = { 'idempotency-key': `book-${day}-0001` };
    const first = await book(client, { startDate: local('10:00') }, key);
    expectStatus(first, 201);
    const retry = await book(client, { startDate: local('10:00') }, key);
    expectStatus(retry, 201);
    expect(retry.body).toEqual(first.body);
    expect(await liveOf(coach.id)).toHaveLength(1);
    // The same key for another request is refused; nothing is booked.
    expectProblem(
      await book(client, { startDate: local('11:00') }, key),
      422,
      'idempotency_key_reused',
    );
    expect(await liveOf(coach.id)).toHaveLength(1);
  });

  it('gives a contested last slot to exactly one of several clients booking at once', async () => {
    const coach = await poolCoach('10:00', '10:30');
    const clients = await Promise.all(Array.from({ length: 6 }, () => signInClient(api)));
    const answers = await Promise.all(clients.map((c) => book(c, { startDate: local('10:00') })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((x) => x.status === 409)) expect(r.body.code).toBe('slot_taken');
    expect(await liveOf(coach.id)).toHaveLength(1);
  });

  it('needs a client record and valid input', async () => {
    await poolCoach();
    const staff = await api.signIn('SUPERADMIN');
    expectProblem(await book(staff, { startDate: local('10:00') }), 409, 'not_a_client');
    const client = await signInClient(api);
    expectFieldError(await book(client, {}), 'startDate');
    expectFieldError(
      await book(client, { startDate: local('10:00'), durationMinutes: 5 }),
      'durationMinutes',
    );
  });
});

describe('cancel and reschedule', () => {
  async function booked(startTime = '10:00') {
    const coach = await poolCoach('09:00', '13:00');
    const client = await signInClient(api);
    const res = await book(client, { startDate: local(startTime) });
    expectStatus(res, 201);
    return { coach, client, appointment: res.body };
  }
  const url = (id: string) => `/api/client/initial_appointment/${id}`;

  it('cancels the own appointment until the notice, then refuses with notice_period', async () => {
    const { coach, client, appointment } = await booked();
    clock.set(new Date(Date.parse(local('10:00')) - 23 * 3600_000).toISOString());
    expectProblem(
      await api.call('DELETE', url(appointment.id), { as: client }),
      409,
      'notice_period',
    );
    expect(await liveOf(coach.id)).toHaveLength(1);

    clock.set(new Date(Date.parse(local('10:00')) - 25 * 3600_000).toISOString());
    const stranger = await signInClient(api);
    expectProblem(await api.call('DELETE', url(appointment.id), { as: stranger }), 404);
    const cancelled = await api.call('DELETE', url(appointment.id), { as: client });
    expectStatus(cancelled, 200);
    expect(cancelled.body.cancelledAt).not.toBeNull();
    expect(await liveOf(coach.id)).toEqual([]);
    expectProblem(
      await api.call('DELETE', url(appointment.id), { as: client }),
      409,
      'appointment_cancelled',
    );
    // Cancelled, the client may book a new initial appointment.
    expectStatus(await book(client, { startDate: local('11:00') }), 201);
  });

  it('moves the appointment to a free slot, keeping id, length and codes, and frees the old time', async () => {
    const { coach, client, appointment } = await booked('10:00');
    const moved = await api.call('PUT', url(appointment.id), {
      as: client,
      body: { startDate: local('10:15') },
    });
    expectStatus(moved, 200);
    expect(moved.body).toMatchObject({
      id: appointment.id,
      startDate: local('10:15'),
      endDate: local('10:45'),
      meetingCodeClient: appointment.meetingCodeClient,
      coach: { id: coach.id },
    });
    const slots = await coachSlots(api, admin, coach.id, local('00:00'), local('23:59'), 15);
    expect(startsOf(slots.body)).toContain(local('10:00'));
    expect(startsOf(slots.body)).not.toContain(local('10:30'));
  });

  it('changes nothing when the new slot is taken', async () => {
    const { coach, client, appointment } = await booked('10:00');
    const other = await newClient(api, admin);
    expectStatus(
      await bookAppointment(api, admin, {
        clientId: other.id,
        coachId: coach.id,
        startDate: local('12:00'),
      }),
      201,
    );
    const refused = await api.call('PUT', url(appointment.id), {
      as: client,
      body: { startDate: local('12:00') },
    });
    expectProblem(refused, 409, 'slot_taken');
    const after = await api.call('GET', url(appointment.id), { as: client });
    expect(after.body).toEqual(appointment);
    expect(await liveOf(coach.id)).toHaveLength(2);
  });

  it('lists reschedule slots naming the coach the move gets: the own coach wherever free', async () => {
    const { coach, client, appointment } = await booked('10:00');
    const idle = await poolCoach('09:00', '15:00');
    const other = await newClient(api, admin);
    expectStatus(
      await bookAppointment(api, admin, {
        clientId: other.id,
        coachId: coach.id,
        startDate: local('12:00'),
      }),
      201,
    );
    const window = { startDate: local('00:00'), endDate: local('23:59'), duration: 30 };
    const slots = (as: Caller, query: Record<string, string | number>) =>
      api.call('GET', '/api/client/initial_appointment_slots', { as, query });
    const coachAt = (body: { slots: Array<{ startDate: string; coach: { id: string } }> }) =>
      Object.fromEntries(body.slots.map((s) => [s.startDate, s.coach.id]));
    // The pool alone names the less busy coach where both are free…
    expect(coachAt((await slots(client, window)).body)[local('11:00')]).toBe(idle.id);
    // …a reschedule keeps the client's coach there, and its own time is free again.
    const res = await slots(client, { ...window, rescheduleOf: appointment.id });
    expectStatus(res, 200);
    const named = coachAt(res.body);
    expect(named[local('10:00')]).toBe(coach.id);
    expect(named[local('11:00')]).toBe(coach.id);
    expect(named[local('12:00')]).toBe(idle.id);
    expect(named[local('14:00')]).toBe(idle.id);
    // The compact form the reschedule page asks for carries the same slots, coaches and length.
    const compact = await slots(client, {
      ...window,
      rescheduleOf: appointment.id,
      form: 'compact',
    });
    expectStatus(compact, 200);
    expect(compact.body.durationMinutes).toBe(
      (Date.parse(appointment.endDate) - Date.parse(appointment.startDate)) / 60_000,
    );
    expect(expandCompactSlots(compact.body)).toEqual(res.body.slots);
    // Nobody else's appointment can be named.
    const stranger = await signInClient(api);
    expectProblem(await slots(stranger, { ...window, rescheduleOf: appointment.id }), 404);
    expectProblem(await slots(admin, { ...window, rescheduleOf: appointment.id }), 404);

    // The move gets the coach the confirmed slot named, or nothing changes.
    expectProblem(
      await api.call('PUT', url(appointment.id), {
        as: client,
        body: { startDate: local('12:00'), coachId: coach.id },
      }),
      409,
      'slot_taken',
    );
    const moved = await api.call('PUT', url(appointment.id), {
      as: client,
      body: { startDate: local('14:00'), coachId: idle.id },
    });
    expectStatus(moved, 200);
    expect(moved.body.coach.id).toBe(idle.id);
  });

  it('refuses a reschedule within the notice and leaves the appointment', async () => {
    const { client, appointment } = await booked('10:00');
    clock.set(new Date(Date.parse(local('10:00')) - 2 * 3600_000).toISOString());
    expectProblem(
      await api.call('PUT', url(appointment.id), {
        as: client,
        body: { startDate: local('12:00') },
      }),
      409,
      'notice_period',
    );
    clock.set(new Date(Date.parse(local('10:00')) + 60_000).toISOString());
    expectProblem(
      await api.call('PUT', url(appointment.id), {
        as: client,
        body: { startDate: local('12:00') },
      }),
      409,
      'appointment_started',
    );
    expect((await api.call('GET', url(appointment.id), { as: client })).body).toEqual(appointment);
    expectProblem(
      await api.call('PUT', url(SOME_ID), { as: client, body: { startDate: local('12:00') } }),
      404,
    );
  });
});

describe('releaseExpiredHolds', () => {
  it('cancels provisional appointments whose hold has passed and frees their slots', async () => {
    const coach = await poolCoach('10:00', '12:00');
    const client = await newClient(api, admin);
    const hold = (startDate: string) =>
      bookAppointment(api, admin, {
        clientId: client.id,
        coachId: coach.id,
        startDate,
        isProvisional: true,
        appointmentType: 'initial',
      });
    // The server's clock stamps provisionalUntil = now + 60 min.
    clock.set('2027-05-01T08:00:00Z');
    const early = await hold(local('10:00'));
    clock.set('2027-05-01T08:45:00Z');
    const late = await hold(local('11:00'));
    expect(early.body.provisionalUntil).toBe('2027-05-01T09:00:00.000Z');

    expect(await releaseExpiredHolds(api.database.db, new Date('2027-05-01T08:59:00Z'))).toEqual(
      [],
    );
    const released = await releaseExpiredHolds(api.database.db, new Date('2027-05-01T09:00:00Z'));
    expect(released).toEqual([early.body.id]);
    const live = await liveOf(coach.id);
    expect(live.map((a) => a.id)).toEqual([late.body.id]);
    const slots = await coachSlots(api, admin, coach.id, local('00:00'), local('23:59'), 30);
    expect(startsOf(slots.body)).toContain(local('10:00'));
    expect(startsOf(slots.body)).not.toContain(local('11:00'));
    // Running again releases nothing more.
    expect(await releaseExpiredHolds(api.database.db, new Date('2027-05-01T09:00:00Z'))).toEqual(
      [],
    );
  });
});
