import { mkdirSync } from 'node:fs';
import { Temporal } from '@js-temporal/polyfill';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRole } from '../../src/app/access';
import { routes, type AppRoute } from '../../src/app/routes';
import type { Role } from '../../src/machines/session.machine';
import { seriousAxeViolations } from '../support/axe';
import { layoutFaults } from '../support/layout-faults';
import { useBrowser } from '../support/browser';
import { openSignedIn, signInByPasscode } from '../support/e2e-sign-in';

/**
 * Calendar and phones: at 375 px no page of the route table scrolls sideways, each
 * page visited as a role that may open it (a client, a coach, an admin, an onboarding manager,
 * and a superadmin for the pages only a superadmin may open), each has the footer with
 * Impressum and Datenschutz and no heading repeats the one before it; `/calendar` is a time grid whose
 * appointments sit in their hour's row and open in a dialog that takes the focus.
 * the same sweep runs at 375 and at 1440 px and also fails where a word is split across
 * lines but at a syllable or a hyphen, or a table cell (a phone card's value) or a table's box
 * hides content (tests/support/layout-faults.ts).
 * With SCREENSHOTS=1 the run saves docs/screenshots/calendar.png, staff-phone.png,
 * billing-phone.png, initial-meetings.png and initial-meetings-phone.png.
 */
const b = useBrowser();

const ACCOUNTS = {
  CLIENT: 'klient@sprechstunde.demo',
  COACH: 'coach2@sprechstunde.demo',
  ADMIN: 'admin@sprechstunde.demo',
  ONBOARDING_MANAGER: 'onboarding@sprechstunde.demo',
  SUPERADMIN: 'superadmin@sprechstunde.demo',
} as const;
type Account = keyof typeof ACCOUNTS;
const tokens = {} as Record<Account, string>;

/** The role each account signs in with; the client has no staff role. */
const ROLE: Record<Account, Role> = {
  CLIENT: 'NONE',
  COACH: 'COACH',
  ADMIN: 'ADMIN',
  ONBOARDING_MANAGER: 'ONBOARDING_MANAGER',
  SUPERADMIN: 'SUPERADMIN',
};

/**
 * Whether the account may open the route, decided by the route table itself (src/app/routes.ts,
 * `access`) and the app's own role check, so new pages and new role groups are swept too.
 */
const mayOpen = (account: Account, route: AppRoute): boolean =>
  !route.access?.roles || (account !== 'CLIENT' && hasRole(ROLE[account], route.access.roles));

/**
 * The pages each account visits: every page it may open, except that the superadmin (who may
 * open every page) visits only the pages no other account may, to keep the run short.
 */
function sweepFor(account: Account): AppRoute[] {
  const others = (Object.keys(ACCOUNTS) as Account[]).filter((a) => a !== 'SUPERADMIN');
  return routes.filter(
    (route, i) =>
      // The table's second `/billing` never matches: the first one answers.
      routes.findIndex((r) => r.path === route.path) === i &&
      mayOpen(account, route) &&
      (account !== 'SUPERADMIN' || !others.some((other) => mayOpen(other, route))),
  );
}

const api = async <T>(account: Account, path: string): Promise<T> => {
  const res = await fetch(`${b.baseUrl}/api${path}`, {
    headers: { authorization: `Bearer ${tokens[account]}` },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
};

/** The `key` of the first entry of the first list in an API answer, or `fallback`. */
async function firstOf(account: Account, path: string, key: string, fallback: string) {
  // A list this run cannot read (e.g. no webhook configured) leaves the page's not-found view.
  const body = await api<Record<string, unknown>>(account, path).catch(() => ({}));
  const list = Object.values(body).find(Array.isArray) as
    Array<Record<string, unknown>> | undefined;
  const value = list?.[0]?.[key];
  return typeof value === 'string' ? value : fallback;
}

/** Real ids for the route parameters, as the account sees them. */
async function paramsFor(account: Account): Promise<Record<string, string>> {
  const none = '00000000-0000-4000-8000-000000000000';
  if (account === 'CLIENT') {
    const own = await api<{ appointments: Array<{ id: string }> }>(
      account,
      '/client/initial_appointment',
    );
    return { appointmentId: own.appointments[0]?.id ?? none, meetingCode: 'abcd-efgh-jkmn' };
  }
  const { appointments } = await api<{
    appointments: Array<{ id: string; meetingCodeCoach?: string }>;
  }>(account, '/appointments?limit=1');
  const { clients } = await api<{ clients: Array<{ id: string }> }>(
    account,
    '/admin/client?limit=1',
  );
  const params: Record<string, string> = {
    appointmentId: appointments[0]?.id ?? none,
    clientId: clients[0]?.id ?? none,
    meetingCode: appointments[0]?.meetingCodeCoach ?? 'abcd-efgh-jkmn',
    coachId: none,
    userId: none,
  };
  if (account !== 'COACH') {
    const coaches = await api<{ coaches: Array<{ id: string }> }>(account, '/coach?limit=1');
    const users = await api<{ users: Array<{ id: string }> }>(account, '/user?limit=1');
    params.coachId = coaches.coaches[0]?.id ?? none;
    params.userId = users.users[0]?.id ?? none;
  }
  if (account === 'ADMIN') {
    params.invoiceId = await firstOf(account, '/invoices?limit=1', 'id', none);
    params.ruleId = await firstOf(account, '/admin/billing-rules', 'id', none);
    params.id = await firstOf(account, '/admin/insurers', 'id', none);
  }
  if (account === 'SUPERADMIN') params.type = await firstOf(account, '/admin/webhook', 'type', 'x');
  return params;
}

/** Waits for the page's heading and for its lists to answer. */
async function settled(page: Page) {
  await page.locator('main h1, h1').first().waitFor({ timeout: 15_000 });
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
}

/** The page's width, and (when too wide) the innermost elements that stick out, to name the culprit. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const out = [...document.querySelectorAll('body *')].filter(
      (el) =>
        el.getBoundingClientRect().right > innerWidth + 1 &&
        ![...el.children].some((c) => c.getBoundingClientRect().right > innerWidth + 1),
    );
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}`;
    return {
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth,
      culprits: out.slice(0, 3).map(name),
    };
  });

const SCREENSHOTS = process.env.SCREENSHOTS === '1';
const screenshotDir = new URL('../../docs/screenshots/', import.meta.url);

beforeAll(async () => {
  for (const [account, email] of Object.entries(ACCOUNTS)) {
    tokens[account as Account] = await signInByPasscode(b.baseUrl, email);
  }
});

/**
 * Both widths in one visit of each page: the page loads at 375 px, is checked, is widened to
 * 1440 px and checked again. Loading every page twice, once per width, was most of this file's
 * time; the layout (CSS and the app's width hooks) follows a resize as it follows a load.
 */
describe('at 375 px no page scrolls sideways, breaks a word or cuts a cell, nor at 1440 px', () => {
  const WIDTHS = [375, 1440] as const;
  const visited = new Set<string>();
  afterAll(() => {
    // Every page of the route table was visited by some role that may open it.
    expect(routes.map((r) => r.path).filter((path) => !visited.has(path))).toEqual([]);
  });

  it.each(Object.keys(ACCOUNTS) as Account[])(
    'as %s, on every page of the route table',
    async (account) => {
      const params = await paramsFor(account);
      const page = b.page;
      await page.setViewportSize({ width: WIDTHS[0], height: 800 });
      await openSignedIn(page, b.baseUrl, tokens[account], '/');
      const wide: string[] = [];
      const refused: string[] = [];
      const noFooter: string[] = [];
      const repeated: string[] = [];
      const broken: string[] = [];
      const cut: string[] = [];
      for (const route of sweepFor(account)) {
        visited.add(route.path);
        const path = route.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? name);
        await page.setViewportSize({ width: WIDTHS[0], height: 800 });
        await page.goto(path);
        for (const width of WIDTHS) {
          if (width !== WIDTHS[0]) await page.setViewportSize({ width, height: 800 });
          await settled(page);
          const at = `${width} px ${path}`;
          // The page showed (or led on, as `/` to "Heute"), not the refusal or a sign-in.
          const where = new URL(page.url()).pathname;
          if (
            (where !== path && ['/login', '/client-signup/login', '/notactive'].includes(where)) ||
            (await page.getByRole('heading', { name: 'Kein Zugriff' }).count()) > 0
          )
            refused.push(`${at}: ${where}`);
          // No heading repeats the one before it ("Profil / Profil").
          const twice = await page.evaluate(() => {
            const texts = [...document.querySelectorAll('h1, h2, h3')]
              .filter((h) => (h as HTMLElement).offsetParent !== null)
              .map((h) => h.textContent!.trim());
            return texts.filter((text, i) => i > 0 && text === texts[i - 1]);
          });
          if (twice.length > 0) repeated.push(`${at}: ${twice.join(', ')}`);
          // Every page carries the footer with Impressum and Datenschutz.
          const footer = page.getByRole('contentinfo');
          for (const name of ['Impressum', 'Datenschutz'])
            if ((await footer.getByRole('link', { name, exact: true }).count()) !== 1)
              noFooter.push(`${at}: ${name}`);
          const { scrollWidth, innerWidth, culprits } = await overflow(page);
          if (scrollWidth > innerWidth)
            wide.push(`${at}: ${scrollWidth} px (${culprits.join(', ')})`);
          // No word is split across lines but at a syllable or a hyphen; no cell hides content.
          const { brokenWords, cutCells } = await layoutFaults(page);
          for (const what of brokenWords) broken.push(`${at}: ${what}`);
          for (const what of cutCells) cut.push(`${at}: ${what}`);
        }
      }
      expect(wide).toEqual([]);
      expect(refused).toEqual([]);
      expect(noFooter).toEqual([]);
      expect(repeated).toEqual([]);
      expect(broken).toEqual([]);
      expect(cut).toEqual([]);
      if (account === 'ADMIN') {
        // On a phone the list's filters fold away behind "Filter" and open from it.
        await page.setViewportSize({ width: 375, height: 800 });
        await page.goto('/clients');
        await settled(page);
        const toggle = page.getByRole('button', { name: 'Filter', exact: true });
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        const apply = page.getByRole('button', { name: 'Filter anwenden' });
        expect(await apply.isVisible()).toBe(false);
        await toggle.click();
        await apply.waitFor();
        await toggle.click();
        await apply.waitFor({ state: 'hidden' });
      }
      if (SCREENSHOTS && account === 'ADMIN') {
        mkdirSync(screenshotDir, { recursive: true });
        for (const [path, file] of [
          ['/clients', 'staff-phone.png'],
          ['/billing', 'billing-phone.png'],
        ] as const) {
          await page.goto(path);
          await settled(page);
          // Billing: the selection bar and the first cards, below the tabs and the filters.
          if (path === '/billing')
            await page
              .locator('main .batch-bar')
              .evaluate((bar) => bar.scrollIntoView({ block: 'start' }));
          await page.screenshot({ path: new URL(file, screenshotDir).pathname, fullPage: false });
        }
      }
    },
    360_000,
  );
});

describe('at 1440 px', () => {
  it('no staff table cuts a column, and no header or cell of a table or of the profile sessions is cut short', async () => {
    const page = b.page;
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page, b.baseUrl, tokens.ADMIN, '/');
    const cut: string[] = [];
    const checked: string[] = [];
    for (const path of ['/appointments', '/clients', '/coaches', '/users', '/events', '/profile']) {
      await page.goto(path);
      await settled(page);
      if (path === '/profile') {
        // The profile's "Sitzungen": this browser's own session at least.
        await page.getByRole('heading', { name: 'Sitzungen' }).waitFor();
        await page.locator('[data-session-id]').first().waitFor();
      }
      const box = page.locator('.table-scroll').first();
      const region =
        path === '/profile' ? page.locator('section[aria-labelledby="profile-sessions"]') : box;
      // A list without rows in this run's data shows no table.
      if ((await region.count()) === 0) continue;
      checked.push(path);
      if ((await box.count()) > 0) {
        const { scrollWidth, clientWidth } = await box.evaluate((el) => ({
          scrollWidth: el.scrollWidth,
          clientWidth: el.clientWidth,
        }));
        if (scrollWidth > clientWidth) cut.push(`${path}: ${scrollWidth} > ${clientWidth}`);
      }
      // Text shortened inside a header, a cell or a session line ("Off…", "Bearb…"): an element
      // that clips or ends in an ellipsis while its content is wider than it.
      const shortened = await region.evaluate((root) =>
        [root, ...root.querySelectorAll('*')]
          .filter((el): el is HTMLElement => {
            if (
              !(el instanceof HTMLElement) ||
              el.closest('.visually-hidden') ||
              el.clientWidth <= 1
            )
              return false;
            const style = getComputedStyle(el);
            const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
            return (
              clips && el.scrollWidth > el.clientWidth + 1 && !el.classList.contains('table-scroll')
            );
          })
          .map((el) => `${el.tagName.toLowerCase()} "${el.innerText.trim().slice(0, 40)}"`),
      );
      for (const what of shortened) cut.push(`${path}: ${what}`);
    }
    expect(cut).toEqual([]);
    expect(checked).toContain('/profile');
    expect(checked.length).toBeGreaterThanOrEqual(4);
  });
});

describe('the calendar', () => {
  it('shows a column per coach for a day; places an appointment in its hour row; the detail opens in a dialog that takes the focus', async () => {
    const page = b.page;
    await page.setViewportSize({ width: 1440, height: 1000 });
    await openSignedIn(page, b.baseUrl, tokens.ADMIN, '/calendar');
    await page.getByRole('heading', { name: 'Kalender', level: 1 }).waitFor();
    await settled(page);
    // "Alle Coaches", today as a day: one column per coach (the demo has five), and the
    // current time marked when it lies within the hours shown.
    await page.getByRole('button', { name: 'Tag', exact: true }).click();
    await settled(page);
    const columns = page.locator('.rbc-time-header .rbc-row-resource');
    expect(await columns.count()).toBeGreaterThanOrEqual(5);
    const hourNow = Number(
      new Intl.DateTimeFormat('de-DE', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        hourCycle: 'h23',
      }).format(new Date()),
    );
    const gutter = await page.locator('.rbc-time-gutter .rbc-timeslot-group').allInnerTexts();
    if (gutter.some((label) => label.trim() === `${String(hourNow).padStart(2, '0')}:00`))
      await page.locator('.rbc-current-time-indicator').first().waitFor();
    await page.getByRole('button', { name: 'Woche', exact: true }).click();
    await settled(page);
    // The demo data has appointments in the coming weeks; step on until one shows.
    const entries = page.locator('.rbc-time-content .rbc-event');
    for (let week = 0; week < 4 && (await entries.count()) === 0; week++) {
      await page.getByRole('button', { name: 'Nächste Woche' }).click();
      await settled(page);
    }
    const entry = entries.first();
    const name = (await entry.textContent())!;
    const hour = Number(/^(\d{2}):(\d{2})/.exec(name)![1]);
    // Its top edge lies in the row of its hour in the time gutter.
    const row = page.locator('.rbc-time-gutter .rbc-timeslot-group').filter({
      has: page.getByText(`${String(hour).padStart(2, '0')}:00`, { exact: true }),
    });
    const [box, rowBox] = [await entry.boundingBox(), await row.boundingBox()];
    expect(box!.y).toBeGreaterThanOrEqual(rowBox!.y - 1);
    expect(box!.y).toBeLessThan(rowBox!.y + rowBox!.height);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await entry.click();
    const dialog = page.getByRole('dialog', { name: 'Termin' });
    await dialog.getByText('Meeting-Code Coach').waitFor();
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The docs show the calendar with an appointment open.
    if (SCREENSHOTS) {
      mkdirSync(screenshotDir, { recursive: true });
      await page.screenshot({
        path: new URL('calendar.png', screenshotDir).pathname,
        fullPage: false,
      });
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(b.pageErrors).toEqual([]);
  });

  /**
   * the appointment dialog opens in the middle of the screen (not over the
   * menu), stays inside a phone's width, and links to the appointment and the client; an
   * appointment of 30 minutes shows its time and client uncut, also beside an overlapping one.
   */
  describe('the appointment dialog and half-hour appointments', () => {
    const today = Temporal.Now.zonedDateTimeISO('Europe/Berlin').toPlainDate();
    // Wednesday of next week, in Berlin.
    const day = today.subtract({ days: today.dayOfWeek - 1 }).add({ days: 9 });
    const at = (hhmm: string) =>
      Temporal.PlainDateTime.from(`${day.toString()}T${hhmm}`)
        .toZonedDateTime('Europe/Berlin')
        .toInstant()
        .toString();
    const post = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await fetch(`${b.baseUrl}/api${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    let coach: { id: string; lastName: string };
    let alone: { id: string; clientId: string };
    const client = { firstName: 'Marlene', lastName: 'Hoffmann' };

    beforeAll(async () => {
      // Coaches of their own, so no demo appointment shares the hour (the demo's coaches
      // work until 17:00 at most on Wednesdays).
      const run = Date.now().toString(36);
      const newCoach = (n: number) =>
        post<{ id: string; lastName: string }>('/coach', {
          firstName: 'Hella',
          lastName: `Halbstunde-${run}-${n}`,
          email: `halb-${run}-${n}@coach.example`,
        });
      coach = await newCoach(1);
      const second = await newCoach(2);
      const newClient = (firstName: string, lastName: string) =>
        post<{ id: string }>('/admin/client', { firstName, lastName });
      const book = (clientId: string, coachId: string, start: string, end: string) =>
        post<{ id: string; clientId: string }>('/appointment', {
          clientId,
          coachId,
          appointmentType: 'followup',
          startDate: at(start),
          endDate: at(end),
          // Used only when next week's Wednesday is a public holiday.
          availabilityOverrideReason: 'Testtermin',
        });
      alone = await book(
        (await newClient(client.firstName, client.lastName)).id,
        coach.id,
        '10:00',
        '10:30',
      );
      await book((await newClient('Jonas', 'Becker')).id, coach.id, '18:00', '18:30');
      await book((await newClient('Aylin', 'Yıldız')).id, second.id, '18:15', '18:45');
    });

    /** The calendar of the test's coach, at the week or day of the appointments. */
    async function openCalendar(page: Page, width: number) {
      await page.setViewportSize({ width, height: 900 });
      await openSignedIn(page, b.baseUrl, tokens.ADMIN, '/calendar');
      await page.getByRole('heading', { name: 'Kalender', level: 1 }).waitFor();
      await settled(page);
      await page.getByRole('combobox', { name: 'Coach' }).selectOption(coach.id);
      const next = page.getByRole('button', {
        name: width < 600 ? 'Nächster Tag' : 'Nächste Woche',
      });
      const entry = page.locator('.rbc-event').filter({ hasText: 'Marlene Hoffmann' });
      for (let step = 0; step < 14 && !(await entry.isVisible()); step++) {
        await next.click();
        await settled(page);
      }
      await entry.waitFor();
      return entry;
    }

    /**
     * Whether a part of the entry shows whole: its box inside the entry's and not cut short by
     * its own ellipsis; and how much of its first line shows, in px.
     */
    const uncut = (entry: ReturnType<Page['locator']>, selector: string) =>
      entry.evaluate((el, sel) => {
        const box = el.getBoundingClientRect();
        const part = el.querySelector(sel)!;
        const r = part.getBoundingClientRect();
        const first = part.getClientRects()[0]!;
        return {
          text: part.textContent,
          inside: r.height > 0 && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5,
          whole: part.scrollWidth <= part.clientWidth,
          shown: first.top < box.bottom ? Math.min(box.right, first.right) - first.left : 0,
        };
      }, selector);

    for (const width of [1440, 375]) {
      it(`at ${width} px: half-hour entries show time and client; the dialog is centred, fits and links`, async () => {
        const page = b.page;
        const entry = await openCalendar(page, width);
        expect(await uncut(entry, '.event-time')).toMatchObject({
          text: '10:00–10:30',
          inside: true,
          whole: true,
        });
        expect(await uncut(entry, '.event-title')).toMatchObject({
          text: 'Marlene Hoffmann',
          inside: true,
          whole: true,
        });
        // Two overlapping half hours of two coaches side by side ("Alle Coaches"): each
        // still shows its time and the start of its client's name.
        await page.getByRole('combobox', { name: 'Coach' }).selectOption('');
        await settled(page);
        for (const name of ['Jonas Becker', 'Aylin Yıldız']) {
          const overlapping = page.locator('.rbc-event').filter({ hasText: name });
          expect(await uncut(overlapping, '.event-time'), name).toMatchObject({
            inside: true,
            whole: true,
          });
          expect((await uncut(overlapping, '.event-title')).shown, name).toBeGreaterThanOrEqual(30);
        }

        await entry.click();
        const dialog = page.getByRole('dialog', { name: 'Termin' });
        await dialog.getByText('Meeting-Code Coach').waitFor();
        const box = (await dialog.boundingBox())!;
        const view = page.viewportSize()!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(view.width);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(view.height);
        // In the middle of the screen.
        expect(Math.abs(box.x + box.width / 2 - view.width / 2)).toBeLessThanOrEqual(2);
        expect(Math.abs(box.y + box.height / 2 - view.height / 2)).toBeLessThanOrEqual(2);
        // Nothing inside runs past its edge.
        expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
        if (width >= 1024) {
          const menu = (await page.locator('.app-sidebar').boundingBox())!;
          expect(box.x).toBeGreaterThan(menu.x + menu.width);
        }
        expect(await seriousAxeViolations(page)).toEqual([]);

        await dialog.getByRole('link', { name: 'Marlene Hoffmann' }).click();
        await page.waitForURL(`**/clients/${alone.clientId}`);
        await page.getByRole('heading', { name: /Marlene Hoffmann/, level: 1 }).waitFor();
        await (await openCalendar(page, width)).click();
        await dialog.getByRole('link', { name: 'Termin öffnen' }).click();
        await page.waitForURL(`**/appointments/${alone.id}`);
        expect(b.pageErrors).toEqual([]);
      });
    }
  });
});

/**
 * The initial-meetings calendar: an onboarding manager sees a known coach's booked initial
 * appointment and free initial time, in the week grid and as the day's list on a phone; a
 * coach has no menu entry and is refused the page.
 */
describe('the initial-meetings calendar', () => {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${b.baseUrl}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens.ADMIN}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const run = Date.now().toString(36);
  const client = { firstName: 'Ilse', lastName: `Erstkontakt-${run}` };
  let coach: { id: string; firstName: string; lastName: string };
  let day: Temporal.PlainDate;

  beforeAll(async () => {
    // The first weekday of next week that is not a public holiday (holidays offer no slot).
    const today = Temporal.Now.zonedDateTimeISO('Europe/Berlin').toPlainDate();
    const monday = today.subtract({ days: today.dayOfWeek - 1 }).add({ days: 7 });
    const instant = (d: Temporal.PlainDate) =>
      d.toZonedDateTime('Europe/Berlin').toInstant().toString();
    const { events } = await call<{ events: Array<{ kind: string; occurrenceDate: string }> }>(
      'GET',
      `/calendar/events?startDate=${instant(monday)}&endDate=${instant(monday.add({ days: 5 }))}&coachId=00000000-0000-4000-8000-000000000000`,
    );
    const holidays = new Set(
      events.filter((e) => e.kind === 'holiday').map((e) => e.occurrenceDate),
    );
    day = [0, 1, 2, 3, 4]
      .map((n) => monday.add({ days: n }))
      .find((d) => !holidays.has(d.toString()))!;
    const at = (hhmm: string) =>
      Temporal.PlainDateTime.from(`${day.toString()}T${hhmm}`)
        .toZonedDateTime('Europe/Berlin')
        .toInstant()
        .toString();
    coach = await call('POST', '/coach', {
      firstName: 'Erna',
      lastName: `Erstgespräch-${run}`,
      email: `erst-${run}@coach.example`,
      takesInitialAppointments: true,
    });
    await call('POST', '/availability', {
      coachId: coach.id,
      startDay: day.toString(),
      startTime: '09:00',
      endTime: '12:00',
    });
    const { id: clientId } = await call<{ id: string }>('POST', '/admin/client', client);
    await call('POST', '/appointment', {
      clientId,
      coachId: coach.id,
      appointmentType: 'initial',
      startDate: at('10:00'),
      endDate: at('10:30'),
    });
  });

  it('shows an onboarding manager the booked and free initial time of a coach, wide and on a phone; a coach may not open it', async () => {
    const page = b.page;
    const name = `${client.firstName} ${client.lastName}`;
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 900 });
      // Wide, the menu leads there; a phone opens the address.
      await openSignedIn(
        page,
        b.baseUrl,
        tokens.ONBOARDING_MANAGER,
        width < 600 ? '/calendar/initial-meetings' : '/',
      );
      if (width >= 600) await page.getByRole('link', { name: 'Erstgespräche' }).first().click();
      await page.getByRole('heading', { name: 'Erstgespräche', level: 1 }).waitFor();
      await settled(page);
      await page.getByRole('combobox', { name: 'Coach' }).selectOption(coach.id);
      const next = page.getByRole('button', {
        name: width < 600 ? 'Nächster Tag' : 'Nächste Woche',
      });
      const booked = page.getByText(name);
      for (let step = 0; step < 14 && !(await booked.isVisible()); step++) {
        await next.click();
        await settled(page);
      }
      await booked.waitFor();
      if (width === 1440) {
        const free = page.locator('.rbc-event.grid-free');
        expect(await free.allInnerTexts()).toEqual([
          expect.stringMatching(/^09:00\s*–10:00\s*frei$/),
          expect.stringMatching(/^10:30\s*–12:00\s*frei$/),
        ]);
      } else {
        const list = page.getByRole('region', { name: `${coach.firstName} ${coach.lastName}` });
        expect(
          (await list.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ')),
        ).toEqual(['09:00–10:00 frei', `10:00–10:30 ${name}`, '10:30–12:00 frei']);
      }
      expect(await seriousAxeViolations(page)).toEqual([]);
      if (SCREENSHOTS) {
        mkdirSync(screenshotDir, { recursive: true });
        const file = width < 600 ? 'initial-meetings-phone.png' : 'initial-meetings.png';
        await page.screenshot({ path: new URL(file, screenshotDir).pathname, fullPage: true });
      }
      await booked.click();
      const dialog = page.getByRole('dialog', { name: 'Erstgespräch' });
      await dialog.getByRole('link', { name }).waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    // A coach (a browser of their own): no menu entry, and the address shows the refusal.
    const coachPage = await (await b.newContext()).newPage();
    await openSignedIn(coachPage, b.baseUrl, tokens.COACH, '/calendar/initial-meetings');
    await coachPage.getByRole('heading', { name: 'Kein Zugriff' }).waitFor();
    await coachPage.getByRole('link', { name: 'Kalender', exact: true }).first().waitFor();
    expect(await coachPage.getByRole('link', { name: 'Erstgespräche' }).count()).toBe(0);
    expect(b.pageErrors).toEqual([]);
  });
});
