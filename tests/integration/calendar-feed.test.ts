import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../support/api';
import {
  expectProblem,
  expectStatus,
  newAppointment,
  newClient,
  plusMinutes,
  unique,
  type Caller,
  startApi,
} from './fixtures';
import { messagesOf, parseFeed, parseInvite, testClock, urlOf } from './notifications-support';

const DAY = 24 * 60 * 60_000;
const clock = testClock();
let api: Api;
let admin: Caller;
let coach: Awaited<ReturnType<Api['signIn']>>;
let otherCoach: Awaited<ReturnType<Api['signIn']>>;

const feedPath = (coachId: string) => `/api/coach/${coachId}/calendar-feed`;
/** The path of a feed URL the API answered, for calling the app in-process. */
const pathOf = (url: string) => new URL(url).pathname;

async function appointmentFor(
  c: { coachId: string | null } & Caller,
  day: number,
  lastName: string,
) {
  const client = await newClient(api, admin, {
    firstName: 'Klara',
    lastName,
    email: `${unique('f')}@klient.example`,
    coachedById: c.coachId,
  });
  const start = new Date(clock.now() + day * DAY);
  start.setUTCHours(10, 0, 0, 0);
  return newAppointment(api, c, {
    clientId: client.id,
    coachId: c.coachId!,
    startDate: start.toISOString(),
    appointmentType: 'initial',
  });
}

beforeAll(async () => {
  ({
    api,
    callers: [admin, coach, otherCoach],
  } = await startApi({ jobs: { clock } }, 'ADMIN', 'COACH', 'COACH'));
});
afterAll(() => api?.close());

describe('a coach’s subscribable calendar feed', () => {
  it('serves the coach’s live appointments as iCalendar at a secret address', async () => {
    const kept = await appointmentFor(coach, 3, 'Mustermann');
    const moved = await appointmentFor(coach, 4, 'Beispiel');
    const cancelled = await appointmentFor(coach, 5, 'Storno');
    const foreign = await appointmentFor(otherCoach, 3, 'Fremd');
    const newStart = plusMinutes(moved.startDate, 120);
    expectStatus(
      await api.call('PUT', `/api/appointment/${moved.id}`, {
        as: coach,
        body: {
          startDate: newStart,
          endDate: plusMinutes(newStart, 30),
          availabilityOverrideReason: 'Der Coach hat hier keine Verfügbarkeit eingetragen',
        },
      }),
      200,
    );
    expectStatus(await api.call('DELETE', `/api/appointment/${cancelled.id}`, { as: coach }), 200);

    expectStatus(await api.call('GET', feedPath(coach.coachId!), { as: coach }), 200);
    const created = await api.call('POST', feedPath(coach.coachId!), { as: coach });
    expectStatus(created, 201);
    expect(created.body.url).toMatch(/^http:\/\/localhost:3000\/api\/calendar-feed\/[\w-]{43}$/);
    expect(created.body.webcalUrl).toBe(created.body.url.replace(/^http:/, 'webcal:'));

    const res = await api.call('GET', pathOf(created.body.url));
    expectStatus(res, 200);
    expect(String(res.headers['content-type'])).toContain('text/calendar');
    const events = parseFeed(res.body);
    const byUid = new Map(events.map((e) => [e.uid, e]));
    expect([...byUid.keys()].sort()).toEqual(
      [`appointment-${kept.id}@localhost`, `appointment-${moved.id}@localhost`].sort(),
    );
    const keptEvent = byUid.get(`appointment-${kept.id}@localhost`)!;
    expect(keptEvent.summary).toBe('Erstgespräch: Klara M.');
    expect(new Date(keptEvent.start).toISOString()).toBe(kept.startDate);
    expect(urlOf(keptEvent)).toBe(`http://localhost:3000/coach/meeting/${kept.meetingCodeCoach}`);
    expect(res.body).not.toContain('Mustermann');
    expect(res.body).not.toContain(kept.meetingCodeClient);

    // The feed carries the same UID and SEQUENCE as the latest invitation.
    const movedEvent = byUid.get(`appointment-${moved.id}@localhost`)!;
    expect(new Date(movedEvent.start).toISOString()).toBe(newStart);
    const latest = (await messagesOf(api, moved.id)).filter(
      (m) => m.template === 'appointment_rescheduled' && m.calendar,
    )[0]!;
    const invite = parseInvite(latest.calendar!);
    expect(movedEvent.uid).toBe(invite.event.uid);
    expect(Number(movedEvent.sequence)).toBe(Number(invite.event.sequence));
    expect(Number(movedEvent.sequence)).toBe(1);
    expect(byUid.has(`appointment-${foreign.id}@localhost`)).toBe(false);

    const status = await api.call('GET', feedPath(coach.coachId!), { as: coach });
    expect(status.body).toEqual({ active: true, createdAt: created.body.createdAt });
  });

  it('rotating makes the old address stop working; revoking ends the feed', async () => {
    const first = await api.call('POST', feedPath(otherCoach.coachId!), { as: otherCoach });
    const second = await api.call('POST', feedPath(otherCoach.coachId!), { as: otherCoach });
    expectStatus(second, 201);
    expect(second.body.url).not.toBe(first.body.url);
    expectProblem(await api.call('GET', pathOf(first.body.url)), 404);
    expectStatus(await api.call('GET', pathOf(second.body.url)), 200);

    expectStatus(await api.call('DELETE', feedPath(otherCoach.coachId!), { as: admin }), 204);
    expectProblem(await api.call('GET', pathOf(second.body.url)), 404);
    const status = await api.call('GET', feedPath(otherCoach.coachId!), { as: otherCoach });
    expect(status.body).toEqual({ active: false, createdAt: null });
  });

  it('coaches reach only their own feed (404 otherwise); unknown coaches are 404; bad tokens 400', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      expectProblem(
        await api.call(method, feedPath(otherCoach.coachId!), { as: coach }),
        404,
        'not_found',
      );
    }
    expectStatus(await api.call('POST', feedPath(otherCoach.coachId!), { as: admin }), 201);
    expectProblem(
      await api.call('POST', feedPath('6f1c2d3e-4b5a-4c6d-8e7f-001122334455'), { as: admin }),
      404,
    );
    expectProblem(await api.call('GET', '/api/calendar-feed/short'), 400);
    expectProblem(await api.call('GET', `/api/calendar-feed/${'x'.repeat(43)}`), 404);
  });
});
