import { withIdempotency } from '../../server/http/idempotency';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appointments, communications } from '../../server/db/schema/index';
import { insertAppointment } from '../../server/features/appointments/booking';
import { createApi, type Api } from '../support/api';
import {
  at,
  berlinDate,
  bookAppointment,
  type Caller,
  expectFieldError,
  expectProblem,
  expectStatus,
  ids,
  minutesFromNow,
  newAppointment,
  newClient,
  newCoach,
  plusMinutes,
  SOME_ID,
  unique,
} from './fixtures';
import { clearOfHolidays, coachWithAvailability } from './scheduling-support';

// Days ahead for bookings and moves inside availability, clear of public holidays.
const D30 = clearOfHolidays(30);
const D60 = clearOfHolidays(60);
const D70 = clearOfHolidays(70);
const D71 = clearOfHolidays(71);
const D72 = clearOfHolidays(72);
const D73 = clearOfHolidays(73);

const MEETING_CODE = /^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/;

let api: Api;
let admin: Caller;
let manager: Caller;

beforeAll(async () => {
  api = await createApi();
  admin = await api.signIn('ADMIN');
  manager = await api.signIn('ONBOARDING_MANAGER');
});
afterAll(() => api.close());

const getAppointment = (id: string, as: Caller = admin) =>
  api.call('GET', `/api/appointment/${id}`, { as });
const appointmentsOf = async (clientId: string) =>
  (await api.call('GET', '/api/appointments', { as: admin, query: { clientId, limit: 100 } })).body;

describe('POST /api/appointment', () => {
  it('creates an appointment with running numbers per client and two meeting codes', async () => {
    const coach = await newCoach(api, admin, { firstName: 'Ida', lastName: 'Imhof' });
    const client = await newClient(api, admin, { firstName: 'Karl', lastName: 'Kunde' });
    const other = await newClient(api, admin);

    const first = await bookAppointment(api, manager, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(2, 9),
      minutes: 60,
      appointmentType: 'first',
    });
    expectStatus(first, 201);
    expect(first.body).toMatchObject({
      startDate: at(2, 9),
      endDate: at(2, 10),
      appointmentType: 'first',
      meetingType: 'jitsi',
      cancelledAt: null,
      clientId: client.id,
      coachId: coach.id,
      client: { id: client.id, firstName: 'Karl', lastName: 'Kunde' },
      coach: { id: coach.id, firstName: 'Ida', lastName: 'Imhof' },
      clientName: 'Karl Kunde',
      isProvisional: false,
      provisionalUntil: null,
      noShow: false,
      appointmentNumber: 1,
      externalMeetingUrl: null,
    });
    expect((await getAppointment(first.body.id)).body).toEqual(first.body);

    const second = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(3, 9),
    });
    const third = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(4, 9),
      meetingType: 'xodosign',
      externalMeetingUrl: 'https://meet.example/raum',
    });
    expect([second.appointmentNumber, third.appointmentNumber]).toEqual([2, 3]);
    expect(third).toMatchObject({
      meetingType: 'xodosign',
      externalMeetingUrl: 'https://meet.example/raum',
    });
    const otherFirst = await newAppointment(api, admin, {
      clientId: other.id,
      coachId: coach.id,
      startDate: at(5, 9),
    });
    expect(otherFirst.appointmentNumber).toBe(1);

    // A cancelled appointment keeps its number; the next one counts on.
    expectStatus(await api.call('DELETE', `/api/appointment/${third.id}`, { as: admin }), 200);
    const fourth = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(6, 9),
    });
    expect(fourth.appointmentNumber).toBe(4);

    const all = [first.body, second, third, otherFirst, fourth];
    const codes = all.flatMap((a) => [a.meetingCodeCoach, a.meetingCodeClient]);
    for (const code of codes) expect(code).toMatch(MEETING_CODE);
    expect(new Set(codes).size).toBe(codes.length);

    // The list reads its rows another way (one JSON array per row): each the same record,
    // field for field, the cancelled one with its cancellation time.
    const listed = (await appointmentsOf(client.id)).appointments as Array<{ id: string }>;
    expect(listed.map((a) => a.id)).toEqual([first.body.id, second.id, third.id, fourth.id]);
    for (const shown of listed) expect(shown).toEqual((await getAppointment(shown.id)).body);
    expect(listed[2]).toMatchObject({ cancelledAt: expect.stringMatching(/Z$/) });
  });

  it('refuses an end before or at the start with 400 naming endDate', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const base = { clientId: client.id, coachId: coach.id, startDate: at(7, 10) };
    expectFieldError(await bookAppointment(api, admin, { ...base, endDate: at(7, 9) }), 'endDate');
    expectFieldError(await bookAppointment(api, admin, { ...base, endDate: at(7, 10) }), 'endDate');
    expect((await appointmentsOf(client.id)).itemCount).toBe(0);
  });

  it('refuses unknown and inactive parties without booking anything', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const unknownClient = await bookAppointment(api, admin, {
      clientId: SOME_ID,
      coachId: coach.id,
      startDate: at(8, 9),
    });
    expect([400, 404]).toContain(unknownClient.status);
    const unknownCoach = await bookAppointment(api, admin, {
      clientId: client.id,
      coachId: SOME_ID,
      startDate: at(8, 9),
    });
    expect([400, 404]).toContain(unknownCoach.status);

    const retired = await newCoach(api, admin);
    expectStatus(await api.call('DELETE', `/api/coach/${retired.id}`, { as: admin }), 204);
    const inactive = await bookAppointment(api, admin, {
      clientId: client.id,
      coachId: retired.id,
      startDate: at(8, 9),
    });
    expectProblem(inactive, 400);
    expect((await appointmentsOf(client.id)).itemCount).toBe(0);
  });

  // docs/decisions/0031-staff-bookings-holds-moves-holidays.md: "provisionalUntil is set by the
  // server when isProvisional".
  it('sets provisionalUntil for a provisional booking', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const res = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(9, 9),
      isProvisional: true,
    });
    expect(res.isProvisional).toBe(true);
    expect(res.provisionalUntil).not.toBeNull();
    expect(Date.parse(res.provisionalUntil)).toBeGreaterThan(Date.now());
  });

  // Contract (IdempotencyKey) and docs/decisions/0029-idempotency-keys.md: a repeat with the same
  // key returns the first result.
  it('answers a repeated booking with the same Idempotency-Key with the first result', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    // The reason is used only when the day falls on a public holiday.
    const input = {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(9, 11),
      availabilityOverrideReason: 'Testtermin',
    };
    const headers = { 'idempotency-key': `booking-${unique()}` };
    const first = await api.call('POST', '/api/appointment', {
      as: admin,
      headers,
      body: { ...input, endDate: plusMinutes(input.startDate, 30), appointmentType: 'followup' },
    });
    expectStatus(first, 201);
    const repeat = await api.call('POST', '/api/appointment', {
      as: admin,
      headers,
      body: { ...input, endDate: plusMinutes(input.startDate, 30), appointmentType: 'followup' },
    });
    expectStatus(repeat, 201);
    expect(repeat.body.id).toBe(first.body.id);
    expect((await appointmentsOf(client.id)).itemCount).toBe(1);
  });
});

describe('Idempotency-Key', () => {
  const book = (as: Caller, key: string, input: Record<string, unknown>) =>
    api.call('POST', '/api/appointment', {
      as,
      headers: { 'idempotency-key': key },
      body: {
        appointmentType: 'followup',
        endDate: plusMinutes(input.startDate as string, 30),
        ...input,
      },
    });

  it('replays the first answer exactly, also when the body lists its fields in another order', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const key = `replay-${unique()}`;
    const first = await book(admin, key, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(11, 9),
    });
    expectStatus(first, 201);
    const repeat = await book(admin, key, {
      startDate: at(11, 9),
      coachId: coach.id,
      clientId: client.id,
    });
    expectStatus(repeat, 201);
    expect(repeat.body).toEqual(first.body);
    expect((await appointmentsOf(client.id)).itemCount).toBe(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another request', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const key = `reuse-${unique()}`;
    expectStatus(
      await book(admin, key, { clientId: client.id, coachId: coach.id, startDate: at(12, 9) }),
      201,
    );
    const other = await book(admin, key, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(12, 11),
    });
    expectProblem(other, 422, 'idempotency_key_reused');
    expect((await appointmentsOf(client.id)).itemCount).toBe(1);
  });

  it('keeps keys per user: another user with the same key books anew', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const key = `per-user-${unique()}`;
    const mine = await book(admin, key, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(13, 9),
    });
    const theirs = await book(manager, key, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(13, 10),
    });
    expectStatus(mine, 201);
    expectStatus(theirs, 201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('does not keep a refused request: the same key may be retried once the slot is free', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const blocker = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(14, 9),
    });
    const key = `retry-${unique()}`;
    const input = { clientId: client.id, coachId: coach.id, startDate: at(14, 9) };
    expectProblem(await book(admin, key, input), 409, 'slot_taken');
    expectStatus(await api.call('DELETE', `/api/appointment/${blocker.id}`, { as: admin }), 200);
    const retried = await book(admin, key, input);
    expectStatus(retried, 201);
    expectStatus(await book(admin, key, input), 201);
    const live = (await appointmentsOf(client.id)).appointments.filter((a: any) => !a.cancelledAt);
    expect(ids(live)).toEqual([retried.body.id]);
  });

  it('books once when the same request races with itself', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const key = `race-${unique()}`;
    const input = { clientId: client.id, coachId: coach.id, startDate: at(15, 9) };
    const answers = await Promise.all([1, 2, 3, 4].map(() => book(admin, key, input)));
    for (const res of answers) expectStatus(res, 201);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    expect((await appointmentsOf(client.id)).itemCount).toBe(1);
  });

  it('forgets a key after 24 hours: the same key then runs a new request, once', async () => {
    const { userId } = await api.signIn('ADMIN');
    const scope = { userId, operationId: 'createAppointment', key: `expiry-${unique()}` };
    const t0 = Date.parse('2026-03-02T08:00:00.000Z');
    let runs = 0;
    const run = (requestHash: string, hoursLater: number) =>
      withIdempotency(
        api.database.db,
        { ...scope, requestHash },
        async () => ({ status: 201, body: { run: ++runs } }),
        new Date(t0 + hoursLater * 3_600_000),
      );
    expect(await run('a', 0)).toMatchObject({ body: { run: 1 }, replayed: false });
    expect(await run('a', 23)).toMatchObject({ body: { run: 1 }, replayed: true });
    await expect(run('b', 23)).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    expect(await run('b', 25)).toMatchObject({ body: { run: 2 }, replayed: false });
    expect(await run('b', 26)).toMatchObject({ body: { run: 2 }, replayed: true });
    expect(runs).toBe(2);
  });

  it('refuses a malformed key (400 naming the header) without booking', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const res = await book(admin, 'short', {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(16, 9),
    });
    expectFieldError(res, 'idempotency-key');
    expect((await appointmentsOf(client.id)).itemCount).toBe(0);
  });
});

describe('provisional appointments', () => {
  const HOLD_MS = 60 * 60_000; // PROVISIONAL_HOLD_MINUTES default

  it('holds the slot for the configured time, restarts the hold and clears it', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const before = Date.now();
    const held = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(17, 9),
      isProvisional: true,
    });
    const until = Date.parse(held.provisionalUntil);
    expect(until).toBeGreaterThanOrEqual(before + HOLD_MS);
    expect(until).toBeLessThanOrEqual(Date.now() + HOLD_MS);

    // Other changes keep the hold as it is.
    const moved = await api.call('PUT', `/api/appointment/${held.id}`, {
      as: admin,
      body: { appointmentType: 'first' },
    });
    expectStatus(moved, 200);
    expect(moved.body.provisionalUntil).toBe(held.provisionalUntil);

    const confirmed = await api.call('PUT', `/api/appointment/${held.id}`, {
      as: admin,
      body: { isProvisional: false },
    });
    expectStatus(confirmed, 200);
    expect(confirmed.body).toMatchObject({ isProvisional: false, provisionalUntil: null });

    const again = await api.call('PUT', `/api/appointment/${held.id}`, {
      as: admin,
      body: { isProvisional: true },
    });
    expectStatus(again, 200);
    expect(again.body.isProvisional).toBe(true);
    expect(Date.parse(again.body.provisionalUntil)).toBeGreaterThanOrEqual(until);
  });

  it('leaves provisionalUntil empty for a firm booking', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const firm = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(18, 9),
    });
    expect(firm).toMatchObject({ isProvisional: false, provisionalUntil: null });
  });
});

describe('overlap', () => {
  it('refuses an overlapping live appointment of the coach with 409 slot_taken', async () => {
    const coach = await newCoach(api, admin);
    const otherCoach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const book = (startDate: string, minutes: number, coachId = coach.id) =>
      bookAppointment(api, admin, { clientId: client.id, coachId, startDate, minutes });

    const blocker = await book(at(40, 9), 60);
    expectStatus(blocker, 201);
    expectProblem(await book(at(40, 9, 30), 60), 409, 'slot_taken');
    expectProblem(await book(at(40, 9, 15), 15), 409, 'slot_taken');
    expectProblem(await book(at(40, 8, 30), 120), 409, 'slot_taken');
    expectProblem(await book(at(40, 9), 60), 409, 'slot_taken');
    expect((await appointmentsOf(client.id)).itemCount).toBe(1);

    // Back to back on either side is fine, and so is another coach at the same time.
    expectStatus(await book(at(40, 10), 30), 201);
    expectStatus(await book(at(40, 8, 30), 30), 201);
    expectStatus(await book(at(40, 9), 60, otherCoach.id), 201);

    // A cancelled appointment does not block.
    expectStatus(
      await api.call('DELETE', `/api/appointment/${blocker.body.id}`, { as: admin }),
      200,
    );
    expectStatus(await book(at(40, 9, 15), 30), 201);
  });

  it('lets exactly one of each overlapping pair win when ten bookings race', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    // Five pairs; the two bookings of a pair overlap by 20 minutes, the pairs do not touch.
    const ranges = [0, 1, 2, 3, 4].flatMap((k) => [
      { startDate: at(50, 8 + k), minutes: 40 },
      { startDate: at(50, 8 + k, 20), minutes: 30 },
    ]);
    const results = await Promise.all(
      ranges.map((r) =>
        bookAppointment(api, admin, { clientId: client.id, coachId: coach.id, ...r }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('slot_taken');
    for (let k = 0; k < 5; k++) {
      expect(statuses.slice(2 * k, 2 * k + 2).sort()).toEqual([201, 409]);
    }
    const booked = await appointmentsOf(client.id);
    expect(booked.itemCount).toBe(5);
    expect(booked.appointments.map((a: any) => a.appointmentNumber).sort()).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });
});

describe('PUT and DELETE /api/appointment/{id}', () => {
  it('moves an appointment, refuses a move onto another one and changes nothing then', async () => {
    const workday = { startDay: berlinDate(at(D30, 12)), startTime: '08:00', endTime: '18:00' };
    const { coach } = await coachWithAvailability(api, admin, workday);
    const { coach: otherCoach } = await coachWithAvailability(api, admin, workday);
    const client = await newClient(api, admin);
    const a = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(D30, 9),
    });
    const b = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(D30, 10),
    });
    const busy = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: otherCoach.id,
      startDate: at(D30, 14),
    });

    const moved = await api.call('PUT', `/api/appointment/${a.id}`, {
      as: manager,
      body: {
        startDate: at(D30, 11),
        endDate: at(D30, 11, 45),
        appointmentType: 'adhoc',
        meetingType: 'xodosign',
      },
    });
    expectStatus(moved, 200);
    expect(moved.body).toMatchObject({
      startDate: at(D30, 11),
      endDate: at(D30, 11, 45),
      appointmentType: 'adhoc',
      meetingType: 'xodosign',
      appointmentNumber: a.appointmentNumber,
      meetingCodeClient: a.meetingCodeClient,
    });
    const afterMove = (await getAppointment(a.id)).body;
    expect(afterMove).toEqual(moved.body);

    const onto = await api.call('PUT', `/api/appointment/${a.id}`, {
      as: admin,
      body: { startDate: at(D30, 10, 15), endDate: at(D30, 10, 45) },
    });
    expectProblem(onto, 409, 'slot_taken');
    const stretch = await api.call('PUT', `/api/appointment/${b.id}`, {
      as: admin,
      body: { endDate: at(D30, 11, 15) },
    });
    expectProblem(stretch, 409, 'slot_taken');
    const toBusyCoach = await api.call('PUT', `/api/appointment/${a.id}`, {
      as: admin,
      body: { coachId: otherCoach.id, startDate: at(D30, 14), endDate: at(D30, 14, 30) },
    });
    expectProblem(toBusyCoach, 409, 'slot_taken');
    expect((await getAppointment(a.id)).body).toEqual(afterMove);
    expect((await getAppointment(b.id)).body).toEqual(b);

    const backwards = await api.call('PUT', `/api/appointment/${a.id}`, {
      as: admin,
      body: { endDate: at(D30, 10, 30) },
    });
    expectFieldError(backwards, 'endDate');

    const handedOver = await api.call('PUT', `/api/appointment/${a.id}`, {
      as: admin,
      body: { coachId: otherCoach.id },
    });
    expectStatus(handedOver, 200);
    expect(handedOver.body.coach.id).toBe(otherCoach.id);
    expect(busy.coachId).toBe(otherCoach.id);
  });

  it('refuses to cancel an appointment that has ended and to mark a no-show before the start (409), changing nothing', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    // Staff may still record an appointment afterwards (the fixtures do): created in the past.
    const over = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(-3, 9),
    });
    const ahead = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(33, 9),
    });
    const underway = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: minutesFromNow(-10),
      endDate: minutesFromNow(20),
    });

    expectProblem(
      await api.call('DELETE', `/api/appointment/${over.id}`, { as: admin }),
      409,
      'appointment_ended',
    );
    expect((await getAppointment(over.id)).body).toEqual(over);
    expectProblem(
      await api.call('PUT', `/api/appointment/${ahead.id}`, {
        as: manager,
        body: { noShow: true },
      }),
      409,
      'appointment_not_started',
    );
    expect((await getAppointment(ahead.id)).body).toEqual(ahead);

    // Once it has started a no-show is recorded (and taken back); under way it can still be cancelled.
    const marked = await api.call('PUT', `/api/appointment/${over.id}`, {
      as: manager,
      body: { noShow: true },
    });
    expectStatus(marked, 200);
    expect(marked.body.noShow).toBe(true);
    expectStatus(
      await api.call('PUT', `/api/appointment/${over.id}`, {
        as: manager,
        body: { noShow: false },
      }),
      200,
    );
    expectStatus(
      await api.call('PUT', `/api/appointment/${underway.id}`, {
        as: admin,
        body: { noShow: true },
      }),
      200,
    );
    const cancelled = await api.call('DELETE', `/api/appointment/${underway.id}`, { as: admin });
    expectStatus(cancelled, 200);
    expect(cancelled.body.cancelledAt).not.toBeNull();
  });

  it('cancels with 200 and cancelledAt, 409 on a repeat, and refuses to change a cancelled one', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const a = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(31, 9),
    });

    const res = await api.call('DELETE', `/api/appointment/${a.id}`, { as: manager });
    expectStatus(res, 200);
    expect(res.body.id).toBe(a.id);
    expect(res.body.cancelledAt).not.toBeNull();
    expect((await getAppointment(a.id)).body.cancelledAt).toBe(res.body.cancelledAt);

    expectProblem(
      await api.call('DELETE', `/api/appointment/${a.id}`, { as: admin }),
      409,
      'appointment_cancelled',
    );
    expectProblem(
      await api.call('PUT', `/api/appointment/${a.id}`, { as: admin, body: { noShow: true } }),
      409,
      'appointment_cancelled',
    );
    expect((await getAppointment(a.id)).body).toEqual(res.body);
  });

  it('answers 404 for unknown appointments', async () => {
    expectProblem(await getAppointment(SOME_ID), 404, 'not_found');
    expectProblem(
      await api.call('PUT', `/api/appointment/${SOME_ID}`, { as: admin, body: { noShow: true } }),
      404,
      'not_found',
    );
    expectProblem(
      await api.call('DELETE', `/api/appointment/${SOME_ID}`, { as: admin }),
      404,
      'not_found',
    );
  });
});

describe('GET /api/appointments', () => {
  let tag: string;
  let coachF: { id: string };
  let coachG: { id: string };
  let p1: { id: string };
  let p2: { id: string };
  let a1: any, a2: any, a3: any, a4: any, a5: any, g1: any;

  async function listed(query: Record<string, string | number | boolean>) {
    const res = await api.call('GET', '/api/appointments', {
      as: admin,
      query: { limit: 100, ...query },
    });
    expectStatus(res, 200);
    expect(res.body.itemCount).toBe(res.body.appointments.length);
    return ids(res.body.appointments);
  }
  const inF = (query: Record<string, string | number | boolean> = {}) =>
    listed({ coach: coachF.id, ...query });

  beforeAll(async () => {
    tag = unique('A');
    coachF = await newCoach(api, admin);
    coachG = await newCoach(api, admin);
    p1 = await newClient(api, admin, {
      wantsToProvideRecordingsForResearch: true,
      campaign: `CX-${tag}`,
      insurer: `IX-${tag}`,
    });
    p2 = await newClient(api, admin, {
      clientType: 'relative',
      contactPerson: { firstName: 'Rudi', lastName: 'Ratgeber' },
      campaign: `CY-${tag}`,
      insurer: `IY-${tag}`,
    });
    const book = (client: { id: string }, coach: { id: string }, day: number, type: string) =>
      newAppointment(api, admin, {
        clientId: client.id,
        coachId: coach.id,
        startDate: at(day, 9),
        appointmentType: type,
      });
    a1 = await book(p1, coachF, 10, 'initial');
    a2 = await book(p1, coachF, 11, 'first');
    a3 = await book(p2, coachF, 12, 'followup');
    a4 = await book(p2, coachF, 13, 'followup');
    a5 = await book(p1, coachF, 14, 'adhoc');
    g1 = await book(p1, coachG, 11, 'followup');
    expectStatus(await api.call('DELETE', `/api/appointment/${a4.id}`, { as: admin }), 200);
    // The API marks a no-show only once the appointment started; a5 lies ahead, so the row is set.
    await api.database.db
      .update(appointments)
      .set({ noShow: true })
      .where(eq(appointments.id, a5.id));
  });

  it('sorts by start, ascending unless sortDirection=desc', async () => {
    expect(await inF()).toEqual(ids([a1, a2, a3, a4, a5]));
    expect(await inF({ sortDirection: 'asc' })).toEqual(ids([a1, a2, a3, a4, a5]));
    expect(await inF({ sortDirection: 'desc' })).toEqual(ids([a5, a4, a3, a2, a1]));
  });

  it('filters by fromDate (inclusive) and toDate (exclusive)', async () => {
    expect(await inF({ fromDate: at(11, 9), toDate: at(13, 9) })).toEqual(ids([a2, a3]));
    expect(await inF({ fromDate: at(13, 9) })).toEqual(ids([a4, a5]));
    expect(await inF({ toDate: at(11, 9) })).toEqual(ids([a1]));
  });

  it('filters by type, cancelled and noShow', async () => {
    expect(await inF({ appointmentType: 'followup' })).toEqual(ids([a3, a4]));
    expect(await inF({ appointmentType: 'first-arztkonsultation' })).toEqual([]);
    expect(await inF({ cancelled: true })).toEqual(ids([a4]));
    expect(await inF({ cancelled: false })).toEqual(ids([a1, a2, a3, a5]));
    expect(await inF({ noShow: true })).toEqual(ids([a5]));
    expect(await inF({ noShow: false })).toEqual(ids([a1, a2, a3, a4]));
  });

  it('filters by the client’s research consent, type, campaign and insurer', async () => {
    expect(await inF({ participatingInResearch: true })).toEqual(ids([a1, a2, a5]));
    expect(await inF({ participatingInResearch: false })).toEqual(ids([a3, a4]));
    expect(await inF({ selfOrRelative: 'relative' })).toEqual(ids([a3, a4]));
    expect(await inF({ selfOrRelative: 'self' })).toEqual(ids([a1, a2, a5]));
    expect((await listed({ campaign: `CX-${tag}` })).sort()).toEqual(ids([a1, a2, a5, g1]).sort());
    expect(await listed({ insurer: `IY-${tag}` })).toEqual(ids([a3, a4]));
    expect(await listed({ insurer: `IY-${tag}`, cancelled: false })).toEqual(ids([a3]));
  });

  it('filters by coach and client', async () => {
    expect(await listed({ coach: coachG.id })).toEqual(ids([g1]));
    expect(await listed({ clientId: p2.id })).toEqual(ids([a3, a4]));
    expect(await inF({ clientId: p1.id })).toEqual(ids([a1, a2, a5]));
    expect(await listed({ coach: coachG.id, clientId: p2.id })).toEqual([]);
  });

  it('pages with itemCount counting all matches', async () => {
    const pages: string[][] = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await api.call('GET', '/api/appointments', {
        as: admin,
        query: { coach: coachF.id, limit: 2, page },
      });
      expectStatus(res, 200);
      expect(res.body.itemCount).toBe(5);
      pages.push(ids(res.body.appointments));
    }
    expect(pages).toEqual([ids([a1, a2]), ids([a3, a4]), ids([a5]), []]);

    const joined = await api.call('GET', '/api/appointments', {
      as: admin,
      query: { campaign: `CX-${tag}`, limit: 1, page: 2 },
    });
    expect(joined.body.itemCount).toBe(4);
    expect(joined.body.appointments).toHaveLength(1);
  });

  it('filters by the insurer the client has now', async () => {
    const client = await newClient(api, admin, { insurer: `IZ-${tag}` });
    const booked = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coachG.id,
      startDate: at(15, 9),
      appointmentType: 'followup',
    });
    const live = { appointmentType: 'followup', cancelled: false };
    expect(await listed({ insurer: `IZ-${tag}`, ...live })).toEqual([booked.id]);
    expectStatus(
      await api.call('PUT', `/api/admin/client/${client.id}`, {
        as: admin,
        body: { insurer: `IW-${tag}` },
      }),
      200,
    );
    expect(await listed({ insurer: `IZ-${tag}`, ...live })).toEqual([]);
    expect(await listed({ insurer: `IW-${tag}`, ...live })).toEqual([booked.id]);
    expect(await listed({ insurer: `IW-${tag}` })).toEqual([booked.id]);
  });
});

describe('GET /api/appointments/upcoming', () => {
  it('requires forDate as a date', async () => {
    expectFieldError(await api.call('GET', '/api/appointments/upcoming', { as: admin }), 'forDate');
    expectFieldError(
      await api.call('GET', '/api/appointments/upcoming', {
        as: admin,
        query: { forDate: new Date().toISOString() },
      }),
      'forDate',
    );
  });

  it('lists live appointments from forDate on while their video room can be entered (end + 30 min), at most 10', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const book = (startDate: string, minutes = 30) =>
      newAppointment(api, admin, { clientId: client.id, coachId: coach.id, startDate, minutes });
    // Ended 40 minutes ago: its room has closed. Ended 10 minutes ago: its room is still open.
    const ended40 = await book(minutesFromNow(-60), 20);
    const ended10 = await book(minutesFromNow(-40), 30);
    const started10 = await book(minutesFromNow(-10), 30);
    // Another coach's: one that ended 65 minutes ago, one under way.
    const otherCoach = await newCoach(api, admin);
    const bookOther = (startDate: string, minutes: number) =>
      newAppointment(api, admin, {
        clientId: client.id,
        coachId: otherCoach.id,
        startDate,
        minutes,
      });
    const ended = await bookOther(minutesFromNow(-75), 10);
    const underway = await bookOther(minutesFromNow(-10), 30);
    const future = [];
    for (let day = 1; day <= 11; day++) future.push(await book(at(day, 9)));
    const cancelled = await book(at(1, 7));
    expectStatus(await api.call('DELETE', `/api/appointment/${cancelled.id}`, { as: admin }), 200);

    const upcoming = async (query: Record<string, string>) => {
      const res = await api.call('GET', '/api/appointments/upcoming', {
        as: admin,
        query: { coachId: coach.id, ...query },
      });
      expectStatus(res, 200);
      return ids(res.body.appointments);
    };
    const yesterday = berlinDate(new Date(Date.now() - 24 * 60 * 60_000));
    const listedFromYesterday = await upcoming({ forDate: yesterday });
    expect(listedFromYesterday).toEqual(ids([ended10, started10, ...future.slice(0, 8)]));
    expect(listedFromYesterday).not.toContain(ended40.id);
    expect(await upcoming({ forDate: yesterday, coachId: otherCoach.id })).toEqual(ids([underway]));
    expect(ended.id).not.toBe(underway.id);

    expect(await upcoming({ forDate: berlinDate(at(5, 9)) })).toEqual(ids(future.slice(4)));
    expect(await upcoming({ forDate: yesterday, clientId: SOME_ID })).toEqual([]);
  });
});

describe('coaches reach only their own appointments', () => {
  it('lists, reads, changes and books only for the own coach record', async () => {
    const coachUser = await api.signIn('COACH');
    const own = coachUser.coachId!;
    const other = await newCoach(api, admin);
    expectStatus(
      await api.call('POST', '/api/availability', {
        as: coachUser,
        body: {
          coachId: own,
          startDay: berlinDate(at(D60, 12)),
          startTime: '08:00',
          endTime: '18:00',
        },
      }),
      201,
    );
    const client = await newClient(api, admin, { coachedById: own });
    const theirClient = await newClient(api, admin, { coachedById: other.id });

    // Another coach's client (or one nobody coaches yet) is out of reach: booking them
    // would mail them and show the coach their contact details.
    for (const outside of [theirClient, await newClient(api, admin)]) {
      expectProblem(
        await bookAppointment(api, coachUser, {
          clientId: outside.id,
          coachId: own,
          startDate: at(D60, 15),
        }),
        403,
        'forbidden_scope',
      );
    }

    const mine = await bookAppointment(api, coachUser, {
      clientId: client.id,
      coachId: own,
      startDate: at(D60, 9),
    });
    expectStatus(mine, 201);
    const theirs = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: other.id,
      startDate: at(D60, 11),
    });

    const forOther = await bookAppointment(api, coachUser, {
      clientId: client.id,
      coachId: other.id,
      startDate: at(D60, 13),
    });
    expectProblem(forOther, 403, 'forbidden_scope');

    const list = await api.call('GET', '/api/appointments', {
      as: coachUser,
      query: { limit: 100 },
    });
    expect(ids(list.body.appointments)).toEqual([mine.body.id]);
    expect(list.body.itemCount).toBe(1);
    const filtered = await api.call('GET', '/api/appointments', {
      as: coachUser,
      query: { coach: other.id },
    });
    expect(filtered.body).toMatchObject({ appointments: [], itemCount: 0 });
    const upcoming = await api.call('GET', '/api/appointments/upcoming', {
      as: coachUser,
      query: { forDate: berlinDate() },
    });
    expect(ids(upcoming.body.appointments)).toEqual([mine.body.id]);

    expectStatus(await getAppointment(mine.body.id, coachUser), 200);
    expectProblem(await getAppointment(theirs.id, coachUser), 404, 'not_found');
    expectProblem(
      await api.call('PUT', `/api/appointment/${theirs.id}`, {
        as: coachUser,
        body: { noShow: true },
      }),
      404,
    );
    expectProblem(
      await api.call('DELETE', `/api/appointment/${theirs.id}`, { as: coachUser }),
      404,
    );
    expect((await getAppointment(theirs.id)).body).toEqual(theirs);

    const handOver = await api.call('PUT', `/api/appointment/${mine.body.id}`, {
      as: coachUser,
      body: { coachId: other.id },
    });
    expectProblem(handOver, 403, 'forbidden_scope');
    const moved = await api.call('PUT', `/api/appointment/${mine.body.id}`, {
      as: coachUser,
      body: { startDate: at(D60, 8), endDate: at(D60, 8, 30) },
    });
    expectStatus(moved, 200);
    expect(moved.body.coachId).toBe(own);
    expectStatus(
      await api.call('DELETE', `/api/appointment/${mine.body.id}`, { as: coachUser }),
      200,
    );
  });
});

describe('a move follows the rules of a booking', () => {
  /** A coach free 08:00–18:00 Berlin time on day `days`, with a client's appointment at 10:00 UTC. */
  async function booked(days: number) {
    const { coach } = await coachWithAvailability(api, admin, {
      startDay: berlinDate(at(days, 12)),
      startTime: '08:00',
      endTime: '18:00',
    });
    const client = await newClient(api, admin, {
      email: `${unique('m')}@klient.example`,
      telephone: '+49 151 2345678',
    });
    const a = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(days, 10),
    });
    return { coach, client, a };
  }
  const move = (id: string, body: Record<string, unknown>, as: Caller = manager) =>
    api.call('PUT', `/api/appointment/${id}`, { as, body });
  const messagesAbout = async (appointmentId: string) =>
    (
      await api.database.db
        .select({ id: communications.id })
        .from(communications)
        .where(eq(communications.appointmentId, appointmentId))
    ).length;
  const updates = async (appointmentId: string) =>
    (
      await api.call('GET', '/api/businessevents', {
        as: admin,
        query: { appointmentId, pageSize: 100 },
      })
    ).body.businessEvents.filter((e: any) => e.action === 'appointment.updated');

  it('refuses a move into the past with 400 start_in_past, changes nothing and tells nobody', async () => {
    const { a } = await booked(D70);
    const told = await messagesAbout(a.id);
    for (const startDate of ['2020-01-10T09:00:00.000Z', minutesFromNow(-60)]) {
      const res = await move(a.id, { startDate, endDate: plusMinutes(startDate, 30) });
      expectFieldError(res, 'startDate');
      expect(res.body.errors[0].code).toBe('start_in_past');
    }
    expect((await getAppointment(a.id)).body).toEqual(a);
    expect(await messagesAbout(a.id)).toBe(told);
    expect(await updates(a.id)).toEqual([]);
  });

  it('refuses a time outside the coach’s availability with 409 outside_availability, unless staff give a reason, which the event records', async () => {
    const { a } = await booked(D71);
    const other = await newCoach(api, admin);
    const told = await messagesAbout(a.id);
    // 20:00 UTC is 21:00 or 22:00 in Berlin, after the coach's 18:00.
    const evening = { startDate: at(D71, 20), endDate: at(D71, 20, 30) };
    expectProblem(await move(a.id, evening), 409, 'outside_availability');
    expectProblem(await move(a.id, { coachId: other.id }), 409, 'outside_availability');
    expectFieldError(
      await move(a.id, { ...evening, availabilityOverrideReason: '   ' }),
      'availabilityOverrideReason',
    );
    expect((await getAppointment(a.id)).body).toEqual(a);
    expect(await messagesAbout(a.id)).toBe(told);

    const overridden = await move(a.id, {
      ...evening,
      availabilityOverrideReason: 'Klientin kann nur abends, mit Coach abgesprochen',
    });
    expectStatus(overridden, 200);
    expect(overridden.body).toMatchObject(evening);
    expect(await messagesAbout(a.id)).toBeGreaterThan(told);
    // Back inside the availability, no reason is needed and none is recorded.
    expectStatus(await move(a.id, { startDate: at(D71, 11), endDate: at(D71, 11, 30) }), 200);
    const [second, first] = await updates(a.id); // newest first
    expect(first.changes).toMatchObject({
      startDate: { from: a.startDate, to: evening.startDate },
      availabilityOverride: { reason: 'Klientin kann nur abends, mit Coach abgesprochen' },
    });
    expect(second.changes).not.toHaveProperty('availabilityOverride');
  });

  it('refuses an overlap even with a reason', async () => {
    const { coach, client, a } = await booked(D72);
    await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(D72, 12),
    });
    const onto = {
      startDate: at(D72, 12, 15),
      endDate: at(D72, 12, 45),
      availabilityOverrideReason: 'Ausnahme',
    };
    expectProblem(await move(a.id, onto), 409, 'slot_taken');
    expect((await getAppointment(a.id)).body).toEqual(a);
  });

  it('still lets staff record a no-show on a past appointment, telling nobody', async () => {
    const { coach, client } = await booked(D73);
    const { id } = await api.database.db.transaction((tx) =>
      insertAppointment(tx, {
        clientId: client.id,
        coachId: coach.id,
        startDate: minutesFromNow(-24 * 60),
        endDate: minutesFromNow(-24 * 60 + 30),
        appointmentType: 'followup',
      }),
    );
    const res = await move(id, { noShow: true, appointmentType: 'first' });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ noShow: true, appointmentType: 'first' });
    expect(await messagesAbout(id)).toBe(0);
  });
});
