import { Temporal } from '@js-temporal/polyfill';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import {
  coachOf,
  openSignedIn,
  registerByPasscode,
  signInByPasscode,
} from '../support/e2e-sign-in';

/**
 * Staff screens: a coach sets availability on /availability and an admin books into it
 * on /appointments/new; two admins racing for one slot: the second gets the German conflict
 * message and fresh slots. Demo coach 4 has no Saturday hours, so a Saturday block is the only
 * free time of that day.
 */
const b = useBrowser();

const COACH = 'coach4@sprechstunde.demo';
const ADMIN = 'admin@sprechstunde.demo';

let coachToken: string;
let adminToken: string;
let coach: { id: string; name: string };

// In Berlin:
const today = Temporal.Now.zonedDateTimeISO('Europe/Berlin').toPlainDate();
// Next week's Saturday, or the week after's when next week's is a public holiday in Berlin,
// which offers no slot (only fixed-date holidays fall on a Saturday).
const FIXED_HOLIDAYS = ['01-01', '03-08', '05-01', '10-03', '12-25', '12-26'];
const holidaySaturday = (d: Temporal.PlainDate) => FIXED_HOLIDAYS.includes(d.toString().slice(5));
const weeksAhead = holidaySaturday(today.subtract({ days: today.dayOfWeek - 1 }).add({ days: 12 }))
  ? 2
  : 1;
const saturday = today.subtract({ days: today.dayOfWeek - 1 }).add({ days: 7 * weeksAhead + 5 });
const dd = (d: Temporal.PlainDate) =>
  `${String(d.day).padStart(2, '0')}.${String(d.month).padStart(2, '0')}.${d.year}`;
const SATURDAY = `Samstag, ${dd(saturday)}`;

beforeAll(async () => {
  coachToken = await signInByPasscode(b.baseUrl, COACH);
  adminToken = await signInByPasscode(b.baseUrl, ADMIN);
  coach = await coachOf(b.baseUrl, coachToken);
});

const openAs = (page: Page, token: string, path: string) =>
  openSignedIn(page, b.baseUrl, token, path);

/** From this week on to the Saturday's. */
async function toSaturdaysWeek(page: Page) {
  for (let week = 0; week < weeksAhead; week++) {
    await page.getByRole('button', { name: 'Nächste Woche' }).click();
  }
}

/** An admin page at the confirmation of the Saturday slot at `time`. */
async function chooseSlot(page: Page, time: string, end: string) {
  await openAs(page, adminToken, '/appointments/new');
  await page.getByRole('heading', { name: 'Neuer Termin', level: 1 }).waitFor();
  await page.getByRole('searchbox', { name: 'Klient:in suchen' }).fill('klient@sprechstunde');
  await page
    .getByRole('list', { name: 'Gefundene Klient:innen' })
    .getByRole('button')
    .first()
    .click();
  await page.getByRole('combobox', { name: 'Coach' }).selectOption(coach.id);
  await toSaturdaysWeek(page);
  await page.getByRole('button', { name: `${SATURDAY}, ${time}–${end}` }).click();
  await page.getByRole('heading', { name: 'Termin bestätigen' }).waitFor();
}

describe('staff scheduling', () => {
  it('a coach sets a Saturday block and an admin books into it', async () => {
    const page = b.page;
    await openAs(page, coachToken, '/availability');
    await page.getByRole('heading', { name: 'Verfügbarkeit', level: 1 }).waitFor();
    // Coaches manage their own week: no coach picker.
    expect(await page.getByRole('combobox', { name: 'Coach' }).count()).toBe(0);
    await toSaturdaysWeek(page);
    await page.getByRole('button', { name: `Block hinzufügen am ${SATURDAY}` }).click();
    await page.getByRole('heading', { name: 'Neuer Block' }).waitFor();
    await page.getByLabel('Von').fill('07:00');
    await page.getByLabel('Bis').fill('10:00');
    await page.getByLabel('Wöchentlich wiederholen').uncheck();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Speichern' }).click();
    const saturdayColumn = page.getByRole('region', {
      name: new RegExp(`${saturday.day}\\.${saturday.month}\\.`),
    });
    await saturdayColumn
      .getByRole('button', { name: /07:00–10:00 Verfügbar \(einmalig\)/ })
      .waitFor();
    await page.getByText('Verfügbarkeit gespeichert.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    const admin = await (await b.newContext()).newPage();
    await chooseSlot(admin, '07:00', '07:50');
    expect(await seriousAxeViolations(admin)).toEqual([]);
    await admin.getByRole('button', { name: 'Termin buchen' }).click();
    await admin.getByRole('heading', { name: 'Termin gebucht' }).waitFor();
    const text = await admin
      .getByRole('status')
      .filter({ hasText: 'Termin gebucht' })
      .textContent();
    expect(text).toContain(`${SATURDAY}, 07:00–07:50`);

    // The coach's calendar shows it on Saturday; the detail has the meeting codes.
    await page.goto('/calendar');
    await page.getByRole('heading', { name: 'Kalender', level: 1 }).waitFor();
    await toSaturdaysWeek(page);
    await page.getByRole('button', { name: /07:00–07:50 .* · Folgetermin/ }).click();
    const detail = page.getByRole('dialog', { name: 'Termin' });
    await detail.getByText('Meeting-Code Coach').waitFor();
    expect(await detail.textContent()).toMatch(/[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });

  it('on a phone in New York the calendar shows one day, in Berlin time, with a zone note', async () => {
    const context = await b.newContext({
      timezoneId: 'America/New_York',
      viewport: { width: 390, height: 800 },
    });
    const page = await context.newPage();
    await openAs(page, coachToken, '/calendar');
    await page.getByRole('heading', { name: 'Kalender', level: 1 }).waitFor();
    const note = page.getByRole('note');
    expect(await note.textContent()).toBe(
      'Alle Zeiten sind deutsche Zeit (Europe/Berlin). Ihr Gerät verwendet die Zeitzone America/New_York.',
    );
    expect(await page.locator('.rbc-time-content .rbc-day-slot').count()).toBe(1);
    await page.getByRole('button', { name: 'Nächster Tag' }).click();
    await page.setViewportSize({ width: 1300, height: 800 });
    await page.getByRole('button', { name: 'Nächste Woche' }).waitFor();
    expect(await page.locator('.rbc-time-content .rbc-day-slot').count()).toBe(7);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('a slot taken meanwhile is explained in German, with fresh slots', async () => {
    const first = await (await b.newContext()).newPage();
    const second = await (await b.newContext()).newPage();
    await chooseSlot(first, '08:00', '08:50');
    await chooseSlot(second, '08:00', '08:50');

    await first.getByRole('button', { name: 'Termin buchen' }).click();
    await first.getByRole('heading', { name: 'Termin gebucht' }).waitFor();

    await second.getByRole('button', { name: 'Termin buchen' }).click();
    const conflict = second.getByRole('alert').filter({ hasText: 'gerade anderweitig vergeben' });
    await conflict.waitFor();
    expect(await conflict.textContent()).toBe(
      'Der gewählte Termin wurde gerade anderweitig vergeben. Wir haben die freien Termine neu geladen – bitte wählen Sie einen anderen.',
    );
    // Fresh slots: 08:00 is gone, later Saturday times are still offered.
    const slots = second.getByRole('group', { name: SATURDAY });
    await slots.waitFor();
    const labels = await slots
      .getByRole('button')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(labels).not.toContain(`${SATURDAY}, 08:00–08:50`);
    expect(labels.length).toBeGreaterThan(0);
    expect(await seriousAxeViolations(second)).toEqual([]);
  });
});

/**
 * no slot falls on a public holiday of the practice's state (Berlin in the
 * demo), though a coach is available then; staff still move an appointment onto one, with a
 * reason. The next Christmas at least a week ahead; the browser's clock is set five days
 * before it, so the client's picker (the next four weeks from now) covers it in any month.
 */
describe('public holidays', () => {
  const berlinToday = Temporal.Now.zonedDateTimeISO('Europe/Berlin').toPlainDate();
  let christmas = Temporal.PlainDate.from({ year: berlinToday.year, month: 12, day: 25 });
  if (Temporal.PlainDate.compare(christmas, berlinToday.add({ days: 7 })) < 0)
    christmas = christmas.with({ year: berlinToday.year + 1 });
  const days = [-1, 0, 1].map((n) => christmas.add({ days: n })); // 24., 25. and 26.12.
  const shortDay = (d: Temporal.PlainDate) =>
    new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      weekday: 'short',
      day: '2-digit',
      month: '2-digit',
    }).format(new Date(`${d.toString()}T12:00:00Z`));

  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${b.baseUrl}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status, `${method} ${path}: ${res.status}`).toBeLessThan(300);
    return res.status === 204 ? null : ((await res.json()) as Record<string, any>);
  };

  let poolCoachId = '';
  beforeAll(async () => {
    // A coach of the initial meetings is available 07:00–09:00 on 24., 25. and 26.12.
    const list = await call(adminToken, 'GET', '/coach');
    const coaches = Object.values(list!).find(Array.isArray) as Array<{
      id: string;
      takesInitialAppointments: boolean;
    }>;
    poolCoachId = coaches.find((c) => c.takesInitialAppointments)!.id;
    for (const day of days) {
      await call(adminToken, 'POST', '/availability', {
        coachId: poolCoachId,
        startDay: day.toString(),
        startTime: '07:00',
        endTime: '09:00',
      });
    }
  });

  it('the client slot picker offers no slot on 25.12. or 26.12.', async () => {
    const email = `feiertag-${Date.now().toString(36)}@example.org`;
    const token = await registerByPasscode(b.baseUrl, email);
    await fetch(`${b.baseUrl}/api/client/signup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Fee', lastName: 'Feiertag', email, privacyConsent: true }),
    }).then((res) => expect(res.status).toBe(201));
    const context = await b.newContext({ viewport: { width: 375, height: 800 } });
    await context.clock.install({
      time: new Date(`${christmas.subtract({ days: 5 }).toString()}T09:00:00+01:00`),
    });
    const page = await context.newPage();
    await openSignedIn(page, b.baseUrl, token, '/client-signup/appointment-selection');
    await page.locator('.client-time').first().waitFor({ timeout: 15_000 });
    const offered = await page.locator('.client-day > span:first-child').allInnerTexts();
    expect(offered).toContain(shortDay(days[0]!));
    expect(offered).not.toContain(shortDay(days[1]!));
    expect(offered).not.toContain(shortDay(days[2]!));
    expect(b.pageErrors).toEqual([]);
  });

  it('staff move an appointment onto 25.12. only by ticking the holiday exception and giving a reason', async () => {
    const client = await call(adminToken, 'POST', '/admin/client', {
      firstName: 'Hanna',
      lastName: 'Heiligabend',
    });
    const appointment = await call(adminToken, 'POST', '/appointment', {
      clientId: client!.id,
      coachId: poolCoachId,
      appointmentType: 'followup',
      startDate: `${days[0]!.toString()}T07:00:00+01:00`,
      endDate: `${days[0]!.toString()}T07:30:00+01:00`,
    });
    const page = b.page;
    await openAs(page, adminToken, `/appointments/${appointment!.id}/edit`);
    await page.getByRole('heading', { name: 'Termin bearbeiten', level: 1 }).waitFor();
    await page.getByLabel('Tag').fill(christmas.toString());
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText('Der neue Tag ist ein gesetzlicher Feiertag', { exact: false }).waitFor();
    const edit = page.getByRole('button', { name: 'Weiter bearbeiten' });
    if (await edit.isVisible()) await edit.click();
    const exception = page.getByRole('group', { name: 'Ausnahme: Feiertag' });
    await exception.getByLabel('Am Feiertag verschieben').check();
    await exception.getByLabel('Grund').fill('Klientin ist nur am Feiertag frei');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect
      .poll(
        async () => (await call(adminToken, 'GET', `/appointment/${appointment!.id}`))!.startDate,
      )
      .toBe(new Date(`${christmas.toString()}T07:00:00+01:00`).toISOString());
    expect(b.pageErrors).toEqual([]);
  });
});
