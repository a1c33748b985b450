import { Temporal } from '@js-temporal/polyfill';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { coachOf, openSignedIn, signInByPasscode } from '../support/e2e-sign-in';

/**
 * Issue 5, staff screens: a coach sets availability on /availability and an admin books into it
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

// Next week's Saturday, in Berlin.
const today = Temporal.Now.zonedDateTimeISO('Europe/Berlin').toPlainDate();
const saturday = today.subtract({ days: today.dayOfWeek - 1 }).add({ days: 7 + 5 });
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

/** An admin page at the confirmation of the Saturday slot at `time`. */
async function chooseSlot(page: Page, time: string, end: string) {
  await openAs(page, adminToken, '/appointments/new');
  await page.getByRole('heading', { name: 'Neuer Termin', level: 1 }).waitFor();
  await page.getByRole('searchbox', { name: 'Klient:in suchen' }).fill('klient@sprechstunde');
  await page.getByRole('list', { name: 'Gefundene Klient:innen' }).getByRole('button').first().click();
  await page.getByRole('combobox', { name: 'Coach' }).selectOption(coach.id);
  await page.getByRole('button', { name: 'Nächste Woche' }).click();
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
    await page.getByRole('button', { name: 'Nächste Woche' }).click();
    await page.getByRole('button', { name: `Block hinzufügen am ${SATURDAY}` }).click();
    await page.getByRole('heading', { name: 'Neuer Block' }).waitFor();
    await page.getByLabel('Von').fill('07:00');
    await page.getByLabel('Bis').fill('10:00');
    await page.getByLabel('Wöchentlich wiederholen').uncheck();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Speichern' }).click();
    const saturdayColumn = page.getByRole('region', { name: new RegExp(`${saturday.day}\\.${saturday.month}\\.`) });
    await saturdayColumn.getByRole('button', { name: /07:00–10:00 Verfügbar \(einmalig\)/ }).waitFor();
    await page.getByText('Verfügbarkeit gespeichert.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    const admin = await (await b.newContext()).newPage();
    await chooseSlot(admin, '07:00', '07:50');
    expect(await seriousAxeViolations(admin)).toEqual([]);
    await admin.getByRole('button', { name: 'Termin buchen' }).click();
    await admin.getByRole('heading', { name: 'Termin gebucht' }).waitFor();
    const text = await admin.getByRole('status').filter({ hasText: 'Termin gebucht' }).textContent();
    expect(text).toContain(`${SATURDAY}, 07:00–07:50`);

    // The coach's calendar shows it on Saturday; the detail has the meeting codes.
    await page.goto('/calendar');
    await page.getByRole('heading', { name: 'Kalender', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Nächste Woche' }).click();
    await page.getByRole('button', { name: /07:00–07:50 .* · Folgetermin/ }).click();
    const detail = page.getByRole('dialog', { name: 'Termin' });
    await detail.getByText('Meeting-Code Coach').waitFor();
    expect(await detail.textContent()).toMatch(/[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });

  it('on a phone in New York the calendar shows one day, in Berlin time, with a zone note', async () => {
    const context = await b.newContext({ timezoneId: 'America/New_York', viewport: { width: 390, height: 800 } });
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
    const labels = await slots.getByRole('button').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(labels).not.toContain(`${SATURDAY}, 08:00–08:50`);
    expect(labels.length).toBeGreaterThan(0);
    expect(await seriousAxeViolations(second)).toEqual([]);
  });
});
