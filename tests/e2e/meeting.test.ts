import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { jwtVerify, type JWTPayload } from 'jose';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, coaches, users } from '../../server/db/schema/index';
import { createTestApp, type TestApp } from '../../server/testing/test-app';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { registerByPasscode, seedSession } from '../support/e2e-sign-in';
import { startJitsiStandIn, type JitsiStandIn } from '../support/jitsi-stand-in';

/**
 * Video meetings end to end: the app (its own server, configured for a local Jitsi stand-in
 * with JWT rooms) in Chromium; the coach joins from /coach/meeting, the client by code, both
 * end up in the same hidden room with the right token, and leaving leads to the finished pages.
 */

const SECRET = 'e2e-jitsi-secret-0123456789abcdef';
const APP_ID = 'sprechstunde-e2e';
const MIN = 60_000;

const b = useBrowser();
let standIn: JitsiStandIn;
let server: TestApp;
let base = '';
/** The server's clock runs this far ahead of the real one (the simulated-clock test moves it). */
let offsetMs = 0;
let coach: { token: string; coachId: string; email: string };
let clientId = '';

interface JitsiCall {
  domain: string;
  options: { roomName: string; jwt?: string; userInfo?: { displayName?: string } };
}

const jitsiCalls = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __jitsiCalls?: unknown[] }).__jitsiCalls ?? [],
  ) as Promise<JitsiCall[]>;

async function claimsOf(jwt: string | undefined): Promise<JWTPayload & Record<string, any>> {
  expect(jwt).toBeTruthy();
  const { payload } = await jwtVerify(jwt!, new TextEncoder().encode(SECRET), {
    issuer: APP_ID,
    audience: 'jitsi',
    currentDate: new Date(Date.now() + offsetMs),
  });
  return payload;
}

async function newAppointment(startMs: number) {
  const start = new Date(startMs);
  start.setUTCSeconds(0, 0);
  const res = await fetch(`${base}/api/appointment`, {
    method: 'POST',
    headers: { authorization: `Bearer ${coach.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      clientId,
      coachId: coach.coachId,
      startDate: start.toISOString(),
      endDate: new Date(start.getTime() + 30 * MIN).toISOString(),
      appointmentType: 'followup',
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as {
    id: string;
    startDate: string;
    meetingCodeCoach: string;
    meetingCodeClient: string;
  };
}

/** Hangs up in the stand-in room (its button, inside the frame). */
const hangUp = (page: Page) =>
  page.frameLocator('#meeting-room iframe').getByRole('button', { name: 'Auflegen' }).click();

beforeAll(async () => {
  standIn = await startJitsiStandIn();
  server = await createTestApp({
    withAuthProvider: true,
    env: {
      JITSI_DOMAIN: standIn.domain,
      JITSI_SCRIPT_URL: standIn.scriptUrl,
      JITSI_APP_ID: APP_ID,
      JITSI_APP_SECRET: SECRET,
      PRINCIPAL_CACHE_MS: '0',
    },
    now: () => new Date(Date.now() + offsetMs),
  });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;

  // A coach with an empty calendar: registered at the provider, made a coach by hand.
  const email = `coach-${Date.now().toString(36)}@example.org`;
  const token = await registerByPasscode(base, email);
  expect(
    (
      await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      })
    ).status,
  ).toBe(200);
  const db = server.database.db;
  const [c] = await db
    .insert(coaches)
    .values({ firstName: 'Carla', lastName: 'Coach', email })
    .returning({ id: coaches.id });
  await db
    .update(users)
    .set({ role: 'COACH', active: true, coachId: c!.id })
    .where(eq(users.email, email));
  coach = { token, coachId: c!.id, email };
  const [k] = await db
    .insert(clients)
    .values({
      firstName: 'Klara',
      lastName: 'Mustermann',
      insurer: 'TK',
      yearOfBirth: 1980,
      coachedById: c!.id,
    })
    .returning({ id: clients.id });
  clientId = k!.id;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await standIn?.close();
});

describe('video meetings in Chromium', () => {
  it('coach and client meet in the same hidden room with their own JWTs; leaving leads to the finished pages', async () => {
    offsetMs = 0;
    const a = await newAppointment(Date.now() + 5 * MIN);

    // The coach: next appointments with a join button.
    await seedSession(b.context, base, coach.token);
    const coachPage = b.page;
    await coachPage.goto(`${base}/coach/meeting`);
    await coachPage.getByRole('heading', { name: 'Videotermin starten' }).waitFor();
    const row = coachPage
      .getByTestId('upcoming-appointment')
      .filter({ hasText: 'Klara Mustermann' });
    await row.waitFor();
    expect(await seriousAxeViolations(coachPage)).toEqual([]);
    await row.getByRole('link', { name: 'Videotermin mit Klara Mustermann beitreten' }).click();
    await coachPage.waitForURL(`${base}/coach/meeting/${a.meetingCodeCoach}/join`);
    await coachPage
      .frameLocator('#meeting-room iframe')
      .getByRole('button', { name: 'Auflegen' })
      .waitFor();

    const [coachCall] = await jitsiCalls(coachPage);
    expect(coachCall!.domain).toBe(standIn.domain);
    const room = coachCall!.options.roomName;
    expect(room).toMatch(/^sprechstunde-[a-z0-9_-]{22}$/);
    expect(room).not.toContain(a.meetingCodeCoach);
    expect(room).not.toContain(a.meetingCodeClient);
    const coachClaims = await claimsOf(coachCall!.options.jwt);
    expect(coachClaims).toMatchObject({
      room,
      moderator: true,
      context: { user: { name: 'Carla Coach', moderator: true } },
    });
    expect(coachClaims.nbf).toBe(Date.parse(a.startDate) / 1000 - 10 * 60);

    // The client: enters the code at /meeting.
    const clientContext = await b.newContext();
    const clientPage = await clientContext.newPage();
    await clientPage.goto(`${base}/meeting`);
    await clientPage.getByRole('heading', { name: 'Videotermin' }).waitFor();
    await clientPage.getByRole('button', { name: 'Zum Videotermin' }).click();
    await clientPage.getByText('Bitte geben Sie einen Meeting-Code ein.').waitFor();
    await clientPage
      .getByRole('textbox', { name: 'Meeting-Code' })
      .fill(a.meetingCodeClient.toUpperCase());
    await clientPage.getByRole('button', { name: 'Zum Videotermin' }).click();
    await clientPage.waitForURL((url) => url.pathname.startsWith('/meeting/'));
    await clientPage
      .frameLocator('#meeting-room iframe')
      .getByRole('button', { name: 'Auflegen' })
      .waitFor();
    const [clientCall] = await jitsiCalls(clientPage);
    expect(clientCall!.options.roomName).toBe(room);
    expect(clientCall!.options.userInfo?.displayName).toBe('Klara M.');
    const clientClaims = await claimsOf(clientCall!.options.jwt);
    expect(clientClaims).toMatchObject({
      room,
      moderator: false,
      context: { user: { name: 'Klara M.', moderator: false } },
    });
    expect(JSON.stringify(clientClaims)).not.toContain('Mustermann');
    expect(standIn.requests).toContain('/external_api.js');

    // Leaving: the client to /meetingfinished, the coach to the finished page, which records it.
    await hangUp(clientPage);
    await clientPage.waitForURL(`${base}/meetingfinished`);
    await clientPage.getByText('Vielen Dank für Ihre Teilnahme.', { exact: false }).waitFor();
    expect(await seriousAxeViolations(clientPage)).toEqual([]);

    await hangUp(coachPage);
    await coachPage.waitForURL(`${base}/coach/meeting/${a.meetingCodeCoach}/finished`);
    await coachPage.getByText('Der Termin wurde als stattgefunden erfasst.').waitFor();
    expect(
      await coachPage.getByRole('link', { name: 'Zur Terminzusammenfassung' }).getAttribute('href'),
    ).toBe(`/appointments/${a.id}`);
    expect(await seriousAxeViolations(coachPage)).toEqual([]);
    const overview = await fetch(
      `${base}/api/appointment/coach/meetingCode/${a.meetingCodeCoach}`,
      {
        headers: { authorization: `Bearer ${coach.token}` },
      },
    );
    expect((await overview.json()).finishedAt).not.toBeNull();

    // The overview of the meeting: client, appointment, and that it took place.
    await coachPage.goto(`${base}/coach/meeting/${a.meetingCodeCoach}`);
    await coachPage.getByTestId('client-name').filter({ hasText: 'Klara Mustermann' }).waitFor();
    await coachPage.getByText('Jahrgang 1980', { exact: false }).waitFor();
    await coachPage.getByText('TK', { exact: true }).waitFor();
    await coachPage.getByText('Als stattgefunden erfasst am', { exact: false }).waitFor();
    expect(await coachPage.getByRole('button', { name: 'Beitreten' }).isEnabled()).toBe(true);
    expect(await seriousAxeViolations(coachPage)).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });

  it('days ahead the client reads when it takes place and when the room opens; a too-early client waits with a countdown and is let in when the room opens (simulated clock)', async () => {
    offsetMs = 0;
    // Days ahead, on a phone: the date and when the room opens, and that the page may be closed.
    const later = await newAppointment(Date.now() + 3 * 24 * 60 * MIN);
    const berlin = (ms: number, options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', ...options }).format(
        new Date(ms),
      );
    const day = (ms: number) => berlin(ms, { day: '2-digit', month: '2-digit', year: 'numeric' });
    const time = (ms: number) =>
      berlin(ms, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const startMs = Date.parse(later.startDate);
    const phone = await (
      await b.newContext({ viewport: { width: 375, height: 740 }, isMobile: true })
    ).newPage();
    await phone.goto(`${base}/meeting/${later.meetingCodeClient}`);
    await phone.getByRole('heading', { name: 'Ihr Videotermin steht fest' }).waitFor();
    await phone
      .getByText(`${day(startMs)}, ${time(startMs)}–${time(startMs + 30 * MIN)} Uhr`)
      .waitFor();
    await phone
      .getByText(
        `Der Videoraum öffnet am ${day(startMs - 10 * MIN)} um ${time(startMs - 10 * MIN)} Uhr.`,
      )
      .waitFor();
    await phone.getByText('Sie können diese Seite jetzt schließen.', { exact: false }).waitFor();
    expect(await phone.getByText('Gleich geht es los').count()).toBe(0);
    expect(
      await phone.getByText('Bitte lassen Sie diese Seite geöffnet.', { exact: false }).count(),
    ).toBe(0);
    expect(await jitsiCalls(phone)).toEqual([]);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    expect(await seriousAxeViolations(phone)).toEqual([]);

    // Minutes ahead: "Gleich geht es los", a countdown, and in when the room opens.
    const a = await newAppointment(Date.now() + 40 * MIN);
    const now = Date.parse(a.startDate) - 12 * MIN;
    offsetMs = now - Date.now();
    const page = b.page;
    // The page's clock starts at `now`; once the page is up it stands still 20 s later and
    // moves only when the test says so.
    await page.clock.install({ time: new Date(now) });
    await page.goto(`${base}/meeting/${a.meetingCodeClient}`);
    await page.getByRole('heading', { name: 'Gleich geht es los' }).waitFor();
    // (axe runs on timers of its own: check before the clock stands still.)
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.clock.pauseAt(new Date(now + 20_000));
    await page.getByText('Noch 01:40 bis zum Einlass').waitFor();
    expect(await jitsiCalls(page)).toEqual([]);

    await page.clock.runFor(1000);
    await page.getByText('Noch 01:39 bis zum Einlass').waitFor();
    await page.clock.runFor(98_000);
    await page.getByText('Noch 00:01 bis zum Einlass').waitFor();
    expect(await jitsiCalls(page)).toEqual([]);

    // The room opens (on the server's clock too) and the client is let in.
    offsetMs += 2 * MIN;
    await page.clock.runFor(1000);
    await page
      .frameLocator('#meeting-room iframe')
      .getByRole('button', { name: 'Auflegen' })
      .waitFor();
    const [call] = await jitsiCalls(page);
    expect((await claimsOf(call!.options.jwt)).moderator).toBe(false);
    expect(b.pageErrors).toEqual([]);
  });

  it('the coach page offers joining while the server opens the room (until end + 30 min); it refuses unknown codes; guessing codes gets rate-limited', async () => {
    offsetMs = 0;
    // Two earlier appointments: one ended 10 minutes ago (its room is open), one 40 (closed).
    const ended10 = await newAppointment(Date.now() - 40 * MIN);
    const ended40 = await newAppointment(Date.now() - 70 * MIN);
    await seedSession(b.context, base, coach.token);
    const page = b.page;
    await page.goto(`${base}/coach/meeting`);
    await page.getByRole('heading', { name: 'Videotermin starten' }).waitFor();
    const joinLink = (code: string) => page.locator(`a[href="/coach/meeting/${code}/join"]`);
    await joinLink(ended10.meetingCodeCoach).waitFor();
    expect(
      await page.locator(`a[href^="/coach/meeting/${ended40.meetingCodeCoach}"]`).count(),
    ).toBe(0);
    // The server lets the coach in for the one and not for the other.
    const token = (code: string) =>
      fetch(`${base}/api/appointment/authenticatedToken/${code}`, {
        headers: { authorization: `Bearer ${coach.token}` },
      }).then((res) => res.status);
    expect(await token(ended10.meetingCodeCoach)).toBe(200);
    expect(await token(ended40.meetingCodeCoach)).toBe(409);
    // The appointment's own page: the join link for the open room only.
    await page.goto(`${base}/appointments/${ended10.id}`);
    await page.getByRole('link', { name: 'Videotermin beitreten' }).waitFor();
    await page.goto(`${base}/appointments/${ended40.id}`);
    await page.getByRole('link', { name: 'Videotermin öffnen' }).waitFor();
    expect(await page.getByRole('link', { name: 'Videotermin beitreten' }).count()).toBe(0);

    await page.goto(`${base}/coach/meeting`);
    await page.getByRole('button', { name: 'Öffnen' }).click();
    await page.getByText('Bitte geben Sie einen Meeting-Code ein.').waitFor();
    await page.getByRole('textbox', { name: 'Meeting-Code' }).fill('zzzz-zzzz-zzzz');
    await page.getByRole('button', { name: 'Öffnen' }).click();
    await page.getByText('Dieser Meeting-Code ist ungültig.', { exact: false }).waitFor();

    // Someone guesses client codes from this address until the API says no more.
    const statuses = await page.evaluate(async () => {
      const seen: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await fetch(`/api/appointment/meetingCode/guess-${i}-abcd`);
        seen.push(res.status);
        if (res.status === 429) break;
      }
      return seen;
    });
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 404)).toBe(true);

    const clientPage = await (await b.newContext()).newPage();
    await clientPage.goto(`${base}/meeting`);
    await clientPage.getByRole('textbox', { name: 'Meeting-Code' }).fill('abcd-efgh-jkmn');
    await clientPage.getByRole('button', { name: 'Zum Videotermin' }).click();
    await clientPage.getByText('Zu viele Versuche.', { exact: false }).waitFor();
  });
});
