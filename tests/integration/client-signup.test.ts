import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { clients, communications, users } from '../../server/db/schema/index';
import { createApi, type Api } from '../support/api';
import { clearOfHolidays, coachWithAvailability, signInClient } from './scheduling-support';
import {
  at,
  berlinDate,
  type Caller,
  expectFieldError,
  expectProblem,
  expectStatus,
  newClient,
  SOME_ID,
  unique,
} from './fixtures';

let api: Api;
let admin: Caller;

// Sign-ups here come from one address; the per-IP limit has its own test below.
const roomy = {
  rateLimits: { clientSignup: { points: 1000, durationSeconds: 900 } },
} as Parameters<typeof createApi>[0];

beforeAll(async () => {
  api = await createApi(roomy);
  admin = await api.signIn('ADMIN');
});
afterAll(() => api.close());

const signupBody = (email: string, extra: Record<string, unknown> = {}) => ({
  firstName: 'Klara',
  lastName: 'Neu',
  email,
  yearOfBirth: 1985,
  street: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  telephone: '0151 2345678',
  additionalTelephoneNumbers: '030 1234567, +49 171 7654321',
  insurer: 'AOK Nordost',
  insurerCode: 'A123456789',
  howDidYouHearAboutUs: 'Suchmaschine',
  wantsToProvideRecordingsForResearch: true,
  notifyViaSms: true,
  campaign: 'herbst-2026',
  privacyConsent: true,
  ...extra,
});

const signup = (body: unknown, o: { token?: string; validateOnly?: boolean; ip?: string } = {}) =>
  api.call('POST', '/api/client/signup', {
    body,
    ...(o.token ? { as: { authorization: `Bearer ${o.token}` } } : {}),
    ...(o.validateOnly ? { query: { validateOnly: true } } : {}),
  });

const clientsWithEmail = (email: string) =>
  api.database.db
    .select()
    .from(clients)
    .where(sql`lower(${clients.email}) = lower(${email})`);

const signInLinksTo = (recipient: string) =>
  api.database.db
    .select()
    .from(communications)
    .where(
      sql`lower(${communications.recipient}) = lower(${recipient}) AND ${communications.template} = 'client_sign_in_link'`,
    );

const userOf = async (sub: string) =>
  (await api.database.db.select().from(users).where(eq(users.authSubject, sub)))[0];

describe('POST /client/signup', () => {
  it('links the signed-in person to the new client in one step: the account is active at once', async () => {
    const email = `${unique('s')}@example.test`;
    const sub = randomUUID();
    const token = await api.tokenFor({ sub, email });
    const res = await signup(signupBody(email), { token });
    expectStatus(res, 201);
    const [client] = await clientsWithEmail(email);
    expect(client).toMatchObject({
      id: res.body.clientId,
      firstName: 'Klara',
      postalCode: '10115',
      insurerCode: 'A123456789',
      campaign: 'herbst-2026',
      clientType: 'self',
      notifyViaSms: true,
      wantsToProvideRecordingsForResearch: true,
      additionalTelephoneNumbers: '030 1234567, +49 171 7654321',
    });
    // The ticked box is the consent, and the server keeps when it was given.
    expect(client!.smsConsentAt).not.toBeNull();
    const user = await userOf(sub);
    expect(user).toMatchObject({ role: 'NONE', active: true, id: client!.userId });
    // The session's login sees an active client, and client calls work right away.
    const login = await api.call('POST', '/api/login', {
      as: { authorization: `Bearer ${token}` },
    });
    expectStatus(login, 200);
    expect(login.body).toMatchObject({ role: 'NONE', active: true });
  });

  it('takes no SMS consent for granted: without the ticked box no SMS reminders, no consent time', async () => {
    const email = `${unique('nosms')}@example.de`;
    const { notifyViaSms: _left, ...body } = signupBody(email);
    const token = await api.tokenFor({ sub: randomUUID(), email });
    expectStatus(await signup(body, { token }), 201);
    const [client] = await clientsWithEmail(email);
    expect(client).toMatchObject({ notifyViaSms: false, smsConsentAt: null });
  });

  it('links an account whose first login already ran (inactive NONE user) and activates it', async () => {
    const email = `${unique('s')}@example.test`;
    const sub = randomUUID();
    const token = await api.tokenFor({ sub, email });
    const first = await api.call('POST', '/api/login', {
      as: { authorization: `Bearer ${token}` },
    });
    expect(first.body).toMatchObject({ active: false });
    expectStatus(await signup(signupBody(email), { token }), 201);
    expect(await userOf(sub)).toMatchObject({ active: true });
    const again = await api.call('POST', '/api/login', {
      as: { authorization: `Bearer ${token}` },
    });
    expect(again.body).toMatchObject({ active: true });
  });

  it('stores a booking for a relative with the relative as client and the booker as contact person', async () => {
    const email = `${unique('r')}@example.test`;
    const res = await signup(
      signupBody(email, {
        clientType: 'relative',
        firstName: 'Opa',
        lastName: 'Heinz',
        yearOfBirth: 1940,
        contactPerson: { firstName: 'Klara', lastName: 'Neu', email, telephone: '0151 2345678' },
      }),
    );
    // Without a token the answer is the same as for a known address; the link goes by e-mail.
    expectStatus(res, 202);
    expect(res.body).toBe('');
    expect(await signInLinksTo(email)).toHaveLength(1);
    const [client] = await clientsWithEmail(email);
    expect(client).toMatchObject({
      firstName: 'Opa',
      clientType: 'relative',
      userId: null,
      contactPerson: { firstName: 'Klara', lastName: 'Neu', email, telephone: '0151 2345678' },
    });
    // Without a token the record waits for the first sign-in with that verified address.
    const sub = randomUUID();
    const login = await api.call('POST', '/api/login', {
      as: { authorization: `Bearer ${await api.tokenFor({ sub, email })}` },
    });
    expect(login.body).toMatchObject({ active: true });
  });

  it('answers a known address exactly as an unknown one and mails its client a sign-in link', async () => {
    const existing = await newClient(api, admin, { email: `${unique('d')}@example.test` });
    const unknown = `${unique('n')}@example.test`;
    const known = existing.email.toUpperCase();
    for (const validateOnly of [true, false]) {
      const a = await signup(signupBody(known), { validateOnly });
      const b = await signup(signupBody(unknown), { validateOnly });
      expectStatus(a, validateOnly ? 204 : 202);
      expect({ status: b.status, body: b.body }).toEqual({ status: a.status, body: a.body });
      expect(Object.keys(a.headers).sort()).toEqual(Object.keys(b.headers).sort());
    }
    // The client learns it by e-mail, once per try; the known record stays as it was.
    const links = await signInLinksTo(existing.email);
    expect(links).toHaveLength(2);
    expect(links[0]!.body).toContain('/client-signup/login?email=');
    expect(await clientsWithEmail(existing.email)).toHaveLength(1);
    expect((await clientsWithEmail(existing.email))[0]!.updatedAt).toEqual(
      (await clientsWithEmail(existing.email))[0]!.createdAt,
    );
  });

  it('sends a known address at most three links per quarter hour, answering the same', async () => {
    const existing = await newClient(api, admin, { email: `${unique('q')}@example.test` });
    for (let i = 0; i < 5; i++) {
      expectStatus(await signup(signupBody(existing.email), { validateOnly: true }), 204);
    }
    expect(await signInLinksTo(existing.email)).toHaveLength(3);
  });

  it('links a registered person to the record staff entered for their address, creating none', async () => {
    const existing = await newClient(api, admin, { email: `${unique('d')}@example.test` });
    const sub = randomUUID();
    const token = await api.tokenFor({ sub, email: existing.email.toUpperCase() });
    const res = await signup(signupBody(existing.email.toUpperCase()), { token });
    expectStatus(res, 201);
    expect(res.body).toEqual({ clientId: existing.id });
    const [client] = await clientsWithEmail(existing.email);
    expect(client).toMatchObject({ id: existing.id, firstName: existing.firstName });
    expect(await clientsWithEmail(existing.email)).toHaveLength(1);
    expect(await userOf(sub)).toMatchObject({ active: true, id: client!.userId });
  });

  it('answers 409 email_taken to the owner of an address whose record has an account, creating nothing', async () => {
    const email = `${unique('o')}@example.test`;
    expectStatus(await signup(signupBody(email), { token: await api.tokenFor({ email }) }), 201);
    const sub = randomUUID();
    const res = await signup(signupBody(email), { token: await api.tokenFor({ sub, email }) });
    expectProblem(res, 409, 'email_taken');
    expect(await clientsWithEmail(email)).toHaveLength(1);
    // Nothing half-created: no account row was left behind for the token either.
    expect(await userOf(sub)).toBeUndefined();
  });

  it('validateOnly checks everything and writes nothing', async () => {
    const email = `${unique('v')}@example.test`;
    const ok = await signup(signupBody(email), { validateOnly: true });
    expectStatus(ok, 204);
    expect(await clientsWithEmail(email)).toHaveLength(0);
    expectFieldError(
      await signup(signupBody(email, { postalCode: '1011' }), { validateOnly: true }),
      'postalCode',
    );
  });

  it('refuses an account that is staff or a client already, leaving everything as it was', async () => {
    const staff = await api.signIn('COACH');
    const sub = /Bearer (.+)/.exec(staff.authorization)![1]!;
    const res = await signup(signupBody(staff.email), { token: sub });
    expectProblem(res, 409, 'account_not_eligible');
    expect(await clientsWithEmail(staff.email)).toHaveLength(0);

    const email = `${unique('t')}@example.test`;
    const person = randomUUID();
    const token = await api.tokenFor({ sub: person, email });
    expectStatus(await signup(signupBody(email), { token }), 201);
    // A second sign-up under another address with the same account: refused, no new client.
    const other = `${unique('t')}@example.test`;
    expectProblem(await signup(signupBody(other), { token }), 400);
  });

  it('refuses a token whose verified address differs from the form (400 email) and a bad token (401)', async () => {
    const email = `${unique('m')}@example.test`;
    const token = await api.tokenFor({ sub: randomUUID(), email: `${unique('x')}@example.test` });
    const res = await signup(signupBody(email), { token });
    expectFieldError(res, 'email');
    expect(res.body.errors[0].code).toBe('email_mismatch');
    expect(await clientsWithEmail(email)).toHaveLength(0);
    expectProblem(await signup(signupBody(email), { token: 'not-a-token' }), 401);
  });

  it.each([
    ['firstName', { firstName: '' }],
    ['email', { email: '12345@' }],
    ['email', { email: '123456' }],
    ['postalCode', { postalCode: '1234' }],
    ['postalCode', { postalCode: 'ABCDE' }],
    ['telephone', { telephone: '12-ab' }],
    ['telephone', { telephone: '0151' }],
    ['additionalTelephoneNumbers', { additionalTelephoneNumbers: '0151 2345678, x' }],
    ['yearOfBirth', { yearOfBirth: 1890 }],
    ['yearOfBirth', { yearOfBirth: new Date().getFullYear() + 1 }],
    ['insurerCode', { insurerCode: 'A1' }],
    ['country', { country: 'Deutschland' }],
    ['privacyConsent', { privacyConsent: false }],
    ['contactPerson', { clientType: 'relative' }],
    ['campaign', { campaign: '' }],
  ])('bad input in %s: 400 naming it, nothing stored', async (field, change) => {
    const email = `${unique('b')}@example.test`;
    const res = await signup(signupBody(email, change));
    expectFieldError(res, field);
    expect(await clientsWithEmail(email)).toHaveLength(0);
  });

  it('accepts the German ways of writing postal codes and telephone numbers', async () => {
    for (const telephone of [
      '+49 151 2345678',
      '0151-2345678',
      '030 / 123 45 67',
      '(030) 1234567',
    ]) {
      expectStatus(
        await signup(signupBody(`${unique('p')}@example.test`, { telephone }), {
          validateOnly: true,
        }),
        204,
      );
    }
    expectStatus(
      await signup(
        signupBody(`${unique('p')}@example.test`, { country: 'AT', postalCode: '1010' }),
        {
          validateOnly: true,
        },
      ),
      204,
    );
  });
});

describe('POST /client/signup rate limit', () => {
  it('limits sign-ups per IP address (429 with Retry-After)', async () => {
    const limited = await createApi({});
    try {
      let last = 0;
      let retryAfter: unknown;
      for (let i = 0; i < 21; i++) {
        const res = await limited.call('POST', '/api/client/signup', {
          body: signupBody(`${unique('l')}@example.test`),
          query: { validateOnly: true },
        });
        last = res.status;
        retryAfter = res.headers['retry-after'];
      }
      expect(last).toBe(429);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /client/request-auth', () => {
  const request = (body: unknown, as: Caller = admin) =>
    api.call('POST', '/api/client/request-auth', { as, body });
  const messagesTo = (recipient: string) =>
    api.database.db.select().from(communications).where(eq(communications.recipient, recipient));

  it('sends a known client a German sign-in link, by id or by address', async () => {
    const client = await newClient(api, admin, {
      email: `${unique('a')}@example.test`,
      telephone: '0151 1111111',
    });
    const res = await request({ clientId: client.id });
    expectStatus(res, 202);
    expect(res.body).toMatchObject({ channel: 'email' });
    const [mail] = await messagesTo(client.email);
    expect(mail).toMatchObject({
      channel: 'email',
      template: 'client_sign_in_link',
      status: 'queued',
    });
    expect(mail!.subject).toContain('Anmeldung');
    expect(mail!.body).toContain(`/client-signup/login?email=${encodeURIComponent(client.email)}`);
    expect(mail!.body).toContain('Einmalcode');

    expectStatus(await request({ clientId: client.id, channel: 'sms' }), 202);
    expect(await messagesTo('0151 1111111')).toHaveLength(1);
  });

  it('gives the same answer whether or not the address is known, and sends only to a client', async () => {
    const known = await newClient(api, admin, { email: `${unique('k')}@example.test` });
    const unknown = `${unique('n')}@example.test`;
    const a = await request({ email: known.email });
    const b = await request({ email: unknown });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(Object.keys(a.body).sort()).toEqual(Object.keys(b.body).sort());
    expect(a.body.channel).toBe(b.body.channel);
    expect(await messagesTo(known.email)).toHaveLength(1);
    expect(await messagesTo(unknown)).toHaveLength(0);
  });

  it('is rate-limited per client: the fourth request within 15 minutes is 429', async () => {
    const client = await newClient(api, admin, { email: `${unique('q')}@example.test` });
    for (let i = 0; i < 3; i++) expectStatus(await request({ clientId: client.id }), 202);
    const res = await request({ clientId: client.id });
    expectProblem(res, 429, 'rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await messagesTo(client.email)).toHaveLength(3);
    // Unknown addresses count as well, so probing them is limited the same way.
    const unknown = `${unique('z')}@example.test`;
    for (let i = 0; i < 3; i++) expectStatus(await request({ email: unknown }), 202);
    expectProblem(await request({ email: unknown }), 429, 'rate_limited');
  });

  it('needs exactly one of clientId and email; 404 for an unknown id; 409 without contact', async () => {
    expectFieldError(await request({}), 'clientId');
    expectFieldError(await request({ channel: 'email' }), 'clientId');
    expectFieldError(await request({ clientId: SOME_ID, email: 'a@example.test' }), 'clientId');
    expectProblem(await request({ clientId: SOME_ID }), 404);
    const noMail = await newClient(api, admin);
    expectProblem(await request({ clientId: noMail.id }), 409, 'no_contact');
    expectProblem(await request({ clientId: noMail.id, channel: 'sms' }), 409, 'no_contact');
  });

  it('is for admins and onboarding managers only', async () => {
    const coach = await api.signIn('COACH');
    expectProblem(await request({ email: 'a@example.test' }, coach), 403);
    const client = await api.signIn('NONE');
    expectProblem(await request({ email: 'a@example.test' }, client), 403);
    expectProblem(
      await api.call('POST', '/api/client/request-auth', { body: { email: 'a@example.test' } }),
      401,
    );
  });
});

describe('GET /client/initial_appointment', () => {
  it('lists the signed-in client’s live upcoming initial appointment, and nobody else’s', async () => {
    const day = berlinDate(at(clearOfHolidays(10), 12));
    await coachWithAvailability(api, admin, {
      startDay: day,
      startTime: '10:00',
      endTime: '12:00',
    });
    const email = `${unique('o')}@example.test`;
    const token = await api.tokenFor({ sub: randomUUID(), email });
    const me = { authorization: `Bearer ${token}` };
    expectStatus(await signup(signupBody(email), { token }), 201);
    const start = new Date(`${day}T10:30:00+0${berlinOffset(day)}:00`).toISOString();
    const booked = await api.call('POST', '/api/client/book_initial_appointment', {
      as: me,
      body: { startDate: start },
    });
    expectStatus(booked, 201);

    const mine = await api.call('GET', '/api/client/initial_appointment', { as: me });
    expectStatus(mine, 200);
    expect(mine.body.appointments.map((a: { id: string }) => a.id)).toEqual([booked.body.id]);
    expect(mine.body.appointments[0]).not.toHaveProperty('meetingCodeCoach');
    // The video room's window, as the server opens it (MEETING_JOIN_EARLY/LATE_MINUTES: 10 and 30).
    const { startDate, endDate, joinableFrom, joinableUntil } = mine.body.appointments[0];
    expect(Date.parse(joinableFrom)).toBe(Date.parse(startDate) - 10 * 60_000);
    expect(Date.parse(joinableUntil)).toBe(Date.parse(endDate) + 30 * 60_000);

    const other = await signInClient(api);
    expect(
      (await api.call('GET', '/api/client/initial_appointment', { as: other })).body.appointments,
    ).toEqual([]);
    const noClient = await api.signIn('NONE', { active: false });
    expectProblem(await api.call('GET', '/api/client/initial_appointment', { as: noClient }), 403);
    expectProblem(await api.call('GET', '/api/client/initial_appointment', { as: admin }), 403);

    // Cancelled appointments leave the list.
    expectStatus(
      await api.call('DELETE', `/api/client/initial_appointment/${booked.body.id}`, { as: me }),
      200,
    );
    expect(
      (await api.call('GET', '/api/client/initial_appointment', { as: me })).body.appointments,
    ).toEqual([]);
  });
});

/** Hours Europe/Berlin is ahead of UTC on `day` (1 or 2). */
function berlinOffset(day: string): number {
  const noon = new Date(`${day}T12:00:00Z`);
  const hour = Number(
    new Intl.DateTimeFormat('en', {
      timeZone: 'Europe/Berlin',
      hour: 'numeric',
      hourCycle: 'h23',
    }).format(noon),
  );
  return hour - 12;
}
