import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { layoutFaults } from '../support/layout-faults';
import { openSignedIn, signInByPasscode } from '../support/e2e-sign-in';

/**
 * The staff calendar with a coach's private side, at 375 and 1440 px: a private busy time as a
 * grey entry that says only "Privat belegt", an appointment it overlaps marked "Überschneidung
 * mit privatem Termin" (in full, however narrow its entry, and in its detail), and the age of a
 * failing calendar's copy above the grid. The demo has no connected calendar, so the calendar's
 * answer gets a private side added in the browser (the server's side is
 * tests/integration/calendar-private-busy.test.ts).
 * With SCREENSHOTS=1 the run saves /tmp/calendar-private-<width>.png.
 */
const b = useBrowser();
let token: string;

beforeAll(async () => {
  token = await signInByPasscode(b.baseUrl, 'admin@sprechstunde.demo');
});

interface Answer {
  events: Array<{
    kind: string;
    appointmentId: string | null;
    coachId: string | null;
    startDate: string;
    endDate: string;
    privateConflict?: boolean;
  }>;
  privateBusy: unknown[];
  privateCalendars: unknown[];
}

/** Adds to each answer: a busy time overlapping its first appointment's second half, one after it. */
async function withPrivateSide(page: Page) {
  await page.route('**/api/calendar/events?*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Answer;
    const first = body.events.find((e) => e.kind === 'appointment');
    if (first) {
      const start = Date.parse(first.startDate);
      const end = Date.parse(first.endDate);
      const iso = (ms: number) => new Date(ms).toISOString();
      first.privateConflict = true;
      body.privateBusy = [
        {
          coachId: first.coachId,
          startDate: iso((start + end) / 2),
          endDate: iso(end + 30 * 60_000),
          allDay: false,
        },
      ];
      body.privateCalendars = [
        {
          coachId: first.coachId,
          failing: true,
          lastSyncedAt: iso(Date.now() - 5 * 3_600_000 - 60_000),
        },
      ];
    }
    await route.fulfill({ response, json: body });
  });
}

/**
 * Whether `text` shows in full somewhere on the page: a text node holding it whose letters lie
 * inside every box around it that clips (an entry, a clamped line), and that is not hidden.
 */
function shownInFull(page: Page, text: string) {
  return page.evaluate((wanted) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1;
      if (at < 0) continue;
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 1 && r.height > 1);
      if (!rects.length) continue;
      let inside = true;
      for (let el = node.parentElement; el && inside; el = el.parentElement) {
        const style = getComputedStyle(el);
        if (style.overflow === 'visible' && style.clipPath === 'none') continue;
        const box = el.getBoundingClientRect();
        inside = rects.every(
          (r) =>
            r.left >= box.left - 0.5 &&
            r.right <= box.right + 0.5 &&
            r.top >= box.top - 0.5 &&
            r.bottom <= box.bottom + 0.5 &&
            style.clipPath === 'none',
        );
      }
      if (inside) return true;
    }
    return false;
  }, text);
}

async function settled(page: Page) {
  await page.getByRole('heading', { name: 'Kalender', level: 1 }).waitFor();
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
}

describe.each([1440, 375])('the staff calendar at %i px', (width) => {
  it('shows a private busy time without detail, the overlap, and the copy age', async () => {
    const page = b.page;
    await page.setViewportSize({ width, height: width < 600 ? 800 : 1000 });
    await withPrivateSide(page);
    await openSignedIn(page, b.baseUrl, token, '/calendar');
    await settled(page);
    const busy = page.locator('.rbc-time-content .rbc-event.grid-private');
    // The demo has appointments in the coming weeks (days on a phone); step on until one shows.
    const next = page.getByRole('button', { name: /Nächste Woche|Nächster Tag/ });
    for (let step = 0; step < 40 && (await busy.count()) === 0; step++) {
      await next.click();
      await settled(page);
    }
    await busy.first().waitFor();
    expect(await busy.first().innerText()).toMatch(
      /^\d{2}:\d{2}\s*(–\d{2}:\d{2})?\s+Privat belegt( · [^\n·]+)?$/,
    );
    await page.getByText('Überschneidung mit privatem Termin').first().waitFor();
    expect(await shownInFull(page, 'Überschneidung mit privatem Termin')).toBe(true);
    await page.getByText(/Privatkalender( von .+)? zuletzt abgeglichen vor 5 Std\./).waitFor();
    await page.locator('.legend-private').waitFor();
    expect(await layoutFaults(page)).toEqual({ brokenWords: [], cutCells: [] });
    expect(await seriousAxeViolations(page)).toEqual([]);
    if (process.env.SCREENSHOTS) {
      await page.screenshot({ path: `/tmp/calendar-private-${width}.png`, fullPage: true });
    }
    // A click on it opens nothing; the overlapped appointment's detail says it stands.
    await busy.first().click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.locator('.rbc-event.grid-conflict').first().click();
    const dialog = page.getByRole('dialog', { name: 'Termin' });
    await dialog
      .getByText(/Überschneidung mit privatem Termin: Der Termin bleibt bestehen/)
      .waitFor();
    if (process.env.SCREENSHOTS) {
      await page.screenshot({ path: `/tmp/calendar-private-${width}-detail.png` });
    }
    await page.keyboard.press('Escape');
    await page.unroute('**/api/calendar/events?*');
    expect(b.pageErrors).toEqual([]);
  });
});
