import { eq } from 'drizzle-orm';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events } from '../../server/db/schema/index';
import { createApi, type Api } from '../support/api';
import {
  at,
  expectProblem,
  expectStatus,
  newAppointment,
  newClient,
  plusMinutes,
  unique,
  type Caller,
  startApi,
} from './fixtures';

const SECRET = 'jitsi-test-secret-0123456789abcdef';
const APP_ID = 'sprechstunde-test';
const DOMAIN = 'meet.example.test';
const MIN = 60_000;

let api: Api;
let admin: Caller;
let coach: Awaited<ReturnType<Api['signIn']>>;
let otherCoach: Awaited<ReturnType<Api['signIn']>>;
/** The server's clock (deps.now), moved by the tests. */
let nowMs = Date.now();
/** Every test calls from its own address, so the per-IP limit of one test spares the others. */
let ip = '';
let ipCounter = 0;

const from = () => ({ 'x-forwarded-for': ip });
const get = (url: string, as?: Caller) => api.call('GET', url, { as: as ?? null, headers: from() });

beforeAll(async () => {
  ({
    api,
    callers: [admin, coach, otherCoach],
  } = await startApi(
    {
      env: {
        JITSI_DOMAIN: DOMAIN,
        JITSI_APP_ID: APP_ID,
        JITSI_APP_SECRET: SECRET,
        MEETING_JOIN_EARLY_MINUTES: '10',
        MEETING_JOIN_LATE_MINUTES: '30',
        TRUST_PROXY: 'true',
        CLIENT_CHANGE_NOTICE_HOURS: '24',
      },
      now: () => new Date(nowMs),
    },
    'ADMIN',
    'COACH',
    'COACH',
  ));
});
afterAll(() => api?.close());
beforeEach(() => {
  nowMs = Date.now();
  ip = `203.0.113.${++ipCounter}`;
});

/** A 50-minute jitsi appointment of `c` with a new client, starting at `start`. */
async function meeting(
  c: { coachId: string | null } & Caller,
  start: string,
  extra: Record<string, unknown> = {},
) {
  const client = await newClient(api, admin, {
    firstName: 'Klara',
    lastName: 'Mustermann',
    email: `${unique('m')}@klient.example`,
    telephone: '+49 151 2345678',
    insurer: 'TK',
    coachedById: c.coachId,
  });
  return newAppointment(api, c, {
    clientId: client.id,
    coachId: c.coachId!,
    startDate: start,
    minutes: 50,
    appointmentType: 'followup',
    ...extra,
  });
}

const verify = (jwt: string) =>
  jwtVerify(jwt, new TextEncoder().encode(SECRET), {
    issuer: APP_ID,
    audience: 'jitsi',
    // The token is checked at the server's (moved) clock.
    currentDate: new Date(nowMs),
  });

describe('meeting look-up by the client’s code (public)', () => {
  it('answers only what the meeting page needs, whatever case or dashes are typed', async () => {
    const a = await meeting(coach, at(2, 9));
    const typed = a.meetingCodeClient.toUpperCase().replace(/-/g, '');
    const res = await get(`/api/appointment/meetingCode/${typed}`);
    expectStatus(res, 200);
    expect(res.body).toEqual({
      appointmentId: a.id,
      startDate: a.startDate,
      endDate: a.endDate,
      appointmentType: 'followup',
      meetingType: 'jitsi',
      coachName: `${a.coach.firstName} ${a.coach.lastName}`,
      cancelled: false,
      externalMeetingUrl: null,
      joinableFrom: plusMinutes(a.startDate, -10),
      joinableUntil: plusMinutes(a.endDate, 30),
    });
    const text = JSON.stringify(res.body);
    for (const secret of [
      'Mustermann',
      'Klara',
      a.meetingCodeCoach,
      a.meetingCodeClient,
      '2345678',
      'TK',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('answers 404 for unknown codes and 400 for malformed ones', async () => {
    expectProblem(await get('/api/appointment/meetingCode/zzzz-zzzz-zzzz'), 404, 'not_found');
    expectProblem(await get('/api/appointment/token/zzzz-zzzz-zzzz'), 404, 'not_found');
    expectProblem(await get('/api/appointment/meetingCode/ab%20cd%3Bx'), 400);
  });

  it('limits guessing per address with 429 and Retry-After, other addresses unaffected', async () => {
    const a = await meeting(coach, at(2, 11));
    let limited = null;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await get(
        `/api/appointment/meetingCode/${unique('g').slice(0, 12).padEnd(12, '0')}`,
      );
      if (res.status === 429) limited = { res, after: i };
      else expectProblem(res, 404);
    }
    expect(limited, 'no 429 after 40 guesses').not.toBeNull();
    expect(limited!.after).toBe(30);
    expectProblem(limited!.res, 429, 'rate_limited');
    expect(Number(limited!.res.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right code is refused to that address for now…
    expectProblem(await get(`/api/appointment/meetingCode/${a.meetingCodeClient}`), 429);
    expectProblem(await get(`/api/appointment/token/${a.meetingCodeClient}`), 429);
    // …while the client at another address gets in.
    ip = '198.51.100.7';
    expectStatus(await get(`/api/appointment/meetingCode/${a.meetingCodeClient}`), 200);
  });
});

describe('room tokens', () => {
  it('gives the client a participant JWT for the hidden room, valid exactly in the joining window', async () => {
    const start = at(3, 14);
    const a = await meeting(coach, start);
    nowMs = Date.parse(start) - 5 * MIN;
    const res = await get(`/api/appointment/token/${a.meetingCodeClient}`);
    expectStatus(res, 200);
    const t = res.body;
    expect(t).toMatchObject({
      domain: DOMAIN,
      scriptUrl: `https://${DOMAIN}/external_api.js`,
      displayName: 'Klara M.',
      moderator: false,
      startDate: a.startDate,
      endDate: a.endDate,
    });
    expect(t.roomName).toMatch(/^sprechstunde-[a-z0-9_-]{22}$/);
    expect(t.roomName).not.toContain(a.meetingCodeClient);
    expect(t.roomName).not.toContain(a.meetingCodeCoach);
    expect(decodeProtectedHeader(t.jwt)).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await verify(t.jwt);
    expect(payload).toMatchObject({
      iss: APP_ID,
      aud: 'jitsi',
      sub: DOMAIN,
      room: t.roomName,
      moderator: false,
      nbf: (Date.parse(start) - 10 * MIN) / 1000,
      exp: (Date.parse(a.endDate) + 30 * MIN) / 1000,
      context: { user: { name: 'Klara M.', moderator: false, affiliation: 'member' } },
    });
  });

  it('gives the coach a moderator JWT for the same room, with the coach’s name', async () => {
    const start = at(3, 16);
    const a = await meeting(coach, start);
    nowMs = Date.parse(start) + 20 * MIN;
    const client = (await get(`/api/appointment/token/${a.meetingCodeClient}`)).body;
    const res = await get(`/api/appointment/authenticatedToken/${a.meetingCodeCoach}`, coach);
    expectStatus(res, 200);
    const coachName = `${a.coach.firstName} ${a.coach.lastName}`;
    expect(res.body).toMatchObject({
      roomName: client.roomName,
      moderator: true,
      displayName: coachName,
    });
    const { payload } = await verify(res.body.jwt);
    expect(payload).toMatchObject({
      room: client.roomName,
      moderator: true,
      context: { user: { name: coachName, moderator: true, affiliation: 'owner' } },
    });
    // A signature with another secret is refused: the token is really signed with ours.
    await expect(
      jwtVerify(res.body.jwt, new TextEncoder().encode('another-secret-0123456789abcdef')),
    ).rejects.toThrow();
  });

  it('refuses tokens outside the window, for cancelled and for non-video meetings', async () => {
    const start = at(4, 10);
    const a = await meeting(coach, start);
    const code = a.meetingCodeClient;
    nowMs = Date.parse(start) - 11 * MIN;
    expectProblem(await get(`/api/appointment/token/${code}`), 409, 'meeting_not_open');
    nowMs = Date.parse(start) - 10 * MIN;
    expectStatus(await get(`/api/appointment/token/${code}`), 200);
    nowMs = Date.parse(a.endDate) + 30 * MIN;
    expectStatus(await get(`/api/appointment/token/${code}`), 200);
    nowMs = Date.parse(a.endDate) + 31 * MIN;
    expectProblem(await get(`/api/appointment/token/${code}`), 409, 'meeting_not_open');
    expectProblem(
      await get(`/api/appointment/authenticatedToken/${a.meetingCodeCoach}`, coach),
      409,
      'meeting_not_open',
    );

    const external = await meeting(coach, at(4, 12), {
      meetingType: 'xodosign',
      externalMeetingUrl: 'https://xodo.example/room/abc',
    });
    nowMs = Date.parse(external.startDate);
    expectProblem(
      await get(`/api/appointment/token/${external.meetingCodeClient}`),
      409,
      'meeting_not_video',
    );
    const info = await get(`/api/appointment/meetingCode/${external.meetingCodeClient}`);
    expect(info.body).toMatchObject({
      meetingType: 'xodosign',
      externalMeetingUrl: 'https://xodo.example/room/abc',
    });
    const overview = await get(
      `/api/appointment/coach/meetingCode/${external.meetingCodeCoach}`,
      coach,
    );
    expect(overview.body.externalJoinUrl).toBe('https://xodo.example/room/abc');

    const cancelled = await meeting(coach, at(4, 14));
    expectStatus(await api.call('DELETE', `/api/appointment/${cancelled.id}`, { as: coach }), 200);
    nowMs = Date.parse(cancelled.startDate);
    expectProblem(
      await get(`/api/appointment/token/${cancelled.meetingCodeClient}`),
      409,
      'appointment_cancelled',
    );
    expect(
      (await get(`/api/appointment/meetingCode/${cancelled.meetingCodeClient}`)).body.cancelled,
    ).toBe(true);
  });

  it('keeps a coach out of another coach’s meeting (404) but lets admins in', async () => {
    const start = at(5, 9);
    const a = await meeting(coach, start);
    nowMs = Date.parse(start);
    expectProblem(
      await get(`/api/appointment/authenticatedToken/${a.meetingCodeCoach}`, otherCoach),
      404,
    );
    expectProblem(
      await get(`/api/appointment/coach/meetingCode/${a.meetingCodeCoach}`, otherCoach),
      404,
    );
    expectProblem(
      await api.call('POST', `/api/appointment/coach/meetingCode/${a.meetingCodeCoach}/finished`, {
        as: otherCoach,
        headers: from(),
      }),
      404,
    );
    // The client's code is no key to the coach's calls.
    expectProblem(
      await get(`/api/appointment/authenticatedToken/${a.meetingCodeClient}`, coach),
      404,
    );
    expectProblem(await get(`/api/appointment/authenticatedToken/${a.meetingCodeCoach}`), 401);
    const asAdmin = await get(`/api/appointment/authenticatedToken/${a.meetingCodeCoach}`, admin);
    expectStatus(asAdmin, 200);
    expect(asAdmin.body.moderator).toBe(true);
  });

  it('works without JWT configuration: hidden room, no token', async () => {
    const plain = await createApi({ env: { JITSI_DOMAIN: 'meet.jit.si' } });
    try {
      const pAdmin = await plain.signIn('ADMIN');
      const pCoach = await plain.signIn('COACH');
      const client = await newClient(plain, pAdmin, { coachedById: pCoach.coachId });
      const a = await newAppointment(plain, pCoach, {
        clientId: client.id,
        coachId: pCoach.coachId!,
        startDate: plusMinutes(new Date().toISOString(), 5),
      });
      const res = await plain.call('GET', `/api/appointment/token/${a.meetingCodeClient}`);
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ domain: 'meet.jit.si', jwt: null, moderator: false });
      expect(res.body.roomName).toMatch(/^sprechstunde-/);
      expect(res.body.roomName).not.toContain(a.meetingCodeClient);
    } finally {
      await plain.close();
    }
  });
});

describe('the coach’s meeting overview and the finished record', () => {
  it('shows client, appointment and earlier appointments to the coach', async () => {
    const first = await meeting(coach, at(-14, 9));
    const client = first.clientId;
    const second = await newAppointment(api, coach, {
      clientId: client,
      coachId: coach.coachId!,
      startDate: at(-7, 9),
    });
    const current = await newAppointment(api, coach, {
      clientId: client,
      coachId: coach.coachId!,
      startDate: at(6, 9),
    });
    const res = await get(`/api/appointment/coach/meetingCode/${current.meetingCodeCoach}`, coach);
    expectStatus(res, 200);
    expect(res.body.appointment.id).toBe(current.id);
    expect(res.body.client).toMatchObject({ id: client, firstName: 'Klara', insurer: 'TK' });
    expect(res.body.earlierAppointments.map((x: { id: string }) => x.id)).toEqual([
      second.id,
      first.id,
    ]);
    expect(res.body.joinableFrom).toBe(plusMinutes(current.startDate, -10));
    expect(res.body.finishedAt).toBeNull();
  });

  it('records once that the meeting took place, not before the window opens', async () => {
    const start = at(7, 9);
    const a = await meeting(coach, start);
    const url = `/api/appointment/coach/meetingCode/${a.meetingCodeCoach}/finished`;
    nowMs = Date.parse(start) - 60 * MIN;
    expectProblem(
      await api.call('POST', url, { as: coach, headers: from() }),
      409,
      'meeting_not_started',
    );
    nowMs = Date.parse(start) + 45 * MIN;
    const first = await api.call('POST', url, { as: coach, headers: from() });
    expectStatus(first, 200);
    expect(first.body).toEqual({ appointmentId: a.id, finishedAt: new Date(nowMs).toISOString() });
    nowMs += 5 * MIN;
    const again = await api.call('POST', url, { as: coach, headers: from() });
    expect(again.body).toEqual(first.body);
    const recorded = await api.database.db
      .select()
      .from(events)
      .where(eq(events.appointmentId, a.id));
    expect(recorded.filter((e) => e.type === 'meeting.finished')).toHaveLength(1);
    const overview = await get(`/api/appointment/coach/meetingCode/${a.meetingCodeCoach}`, coach);
    expect(overview.body.finishedAt).toBe(first.body.finishedAt);
  });
});

describe('the client cancels by meeting code', () => {
  it('cancels a future appointment once; refuses late and repeated cancellations', async () => {
    const a = await meeting(coach, at(9, 9));
    const res = await api.call('DELETE', `/api/appointment/meetingCode/${a.meetingCodeClient}`, {
      headers: from(),
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ appointmentId: a.id, cancelled: true });
    const stored = await api.call('GET', `/api/appointment/${a.id}`, { as: coach });
    expect(stored.body.cancelledAt).not.toBeNull();
    expectProblem(
      await api.call('DELETE', `/api/appointment/meetingCode/${a.meetingCodeClient}`, {
        headers: from(),
      }),
      409,
      'appointment_cancelled',
    );
    const soon = await meeting(coach, plusMinutes(new Date().toISOString(), 120));
    expectProblem(
      await api.call('DELETE', `/api/appointment/meetingCode/${soon.meetingCodeClient}`, {
        headers: from(),
      }),
      409,
      'notice_period',
    );
    expect(
      (await api.call('GET', `/api/appointment/${soon.id}`, { as: coach })).body.cancelledAt,
    ).toBeNull();
  });
});
