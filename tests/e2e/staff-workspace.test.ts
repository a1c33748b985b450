import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { seedSession, signInByPasscode } from '../support/e2e-sign-in';

/**
 * Staff workspace part 1: appointments and clients in Chromium, signed in as the demo
 * accounts. A coach sees only their own clients and appointments; an admin filters (the filters
 * live in the URL and survive a reload), opens and edits a client (bad input gets a German
 * message at the field and changes nothing), and cancels an appointment after confirming.
 */
const b = useBrowser();

const COACH = 'coach2@sprechstunde.demo';
const ADMIN = 'admin@sprechstunde.demo';

let coachToken: string;
let adminToken: string;
let coach: { id: string; name: string };

beforeAll(async () => {
  coachToken = await signInByPasscode(b.baseUrl, COACH);
  adminToken = await signInByPasscode(b.baseUrl, ADMIN);
  const login = await fetch(`${b.baseUrl}/api/login`, {
    method: 'POST',
    headers: { authorization: `Bearer ${coachToken}` },
  });
  coach = ((await login.json()) as { coach: { id: string; name: string } }).coach;
});

async function openAs(page: Page, token: string, path: string) {
  await seedSession(page.context(), b.baseUrl, token);
  await page.goto(path);
}

/** The text of one column of the results table, per row. */
async function column(page: Page, region: string, index: number): Promise<string[]> {
  const table = page.getByRole('region', { name: region }).locator('table.staff-table tbody tr');
  return table.evaluateAll(
    (rows, i) => rows.map((r) => (r.children[i] as HTMLElement).innerText.trim()),
    index,
  );
}

/** Waits until the list has answered (no progress) and shows rows or its empty state. */
async function settled(page: Page, region: string) {
  const list = page.getByRole('region', { name: region });
  await list.and(page.locator('[aria-busy="false"]')).waitFor();
}

const search = (page: Page) => new URL(page.url()).searchParams;

/**
 * Books an appointment of the signed-in coach's first client with this coach through the API,
 * `minutes` long, starting at the first free minute from `fromMs` on (stepping `stepMinutes`,
 * backwards when negative, past the demo data's appointments; `attempts` starts at most: the
 * default steps past an hour of the demo grid, where a one-hour appointment can cover every
 * start of a shorter search, depending on the time of day the run happens at).
 */
async function bookNear(
  token: string,
  fromMs: number,
  minutes: number,
  stepMinutes: number,
  attempts = 16,
) {
  const clients = await fetch(`${b.baseUrl}/api/admin/client?limit=1`, {
    headers: { authorization: `Bearer ${coachToken}` },
  });
  const client = ((await clients.json()) as { clients: Array<{ id: string }> }).clients[0]!;
  const first = Math.ceil(fromMs / 60_000) * 60_000;
  const refused: number[] = [];
  for (let step = 0; step < attempts; step++) {
    const start = first + step * stepMinutes * 60_000;
    const res = await fetch(`${b.baseUrl}/api/appointment`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({
        clientId: client.id,
        coachId: coach.id,
        startDate: new Date(start).toISOString(),
        endDate: new Date(start + minutes * 60_000).toISOString(),
        appointmentType: 'followup',
      }),
    });
    if (res.status === 201)
      return (await res.json()) as {
        id: string;
        clientId: string;
        startDate: string;
        endDate: string;
      };
    refused.push(res.status);
  }
  throw new Error(`no free time for a test appointment (answers: ${refused.join(', ')})`);
}

/** The coach's appointment whose video room is open now (10 min before its start to 30 min after its end, less a minute to spare), if any. */
async function runningAppointment(): Promise<{ id: string }> {
  const query = new URLSearchParams({
    coach: coach.id,
    fromDate: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    toDate: new Date(Date.now() + 3_600_000).toISOString(),
    cancelled: 'false',
    limit: '100',
  });
  const res = await fetch(`${b.baseUrl}/api/appointments?${query}`, {
    headers: { authorization: `Bearer ${coachToken}` },
  });
  const { appointments } = (await res.json()) as {
    appointments: Array<{ id: string; startDate: string; endDate: string }>;
  };
  const now = Date.now();
  const open = appointments.find(
    (a) =>
      Date.parse(a.startDate) - 10 * 60_000 <= now && now <= Date.parse(a.endDate) + 29 * 60_000,
  );
  if (!open)
    throw new Error('neither a free time near now nor a running appointment of this coach');
  return open;
}

describe('a coach', () => {
  it('sees only their own clients and appointments', async () => {
    const page = b.page;
    await openAs(page, coachToken, '/clients?showClosedSessions=true&limit=100');
    await page.getByRole('heading', { name: 'Klient:innen', level: 1 }).waitFor();
    await settled(page, 'Klient:innen');
    const clientCoaches = await column(page, 'Klient:innen', 4);
    expect(clientCoaches.length).toBeGreaterThan(0);
    // The coach's own name without a title (the session carries "Dr. …" for some).
    for (const name of clientCoaches) expect(coach.name).toContain(name);
    // No coach filter for coaches: they have only their own.
    expect(await page.getByLabel('Coach', { exact: true }).count()).toBe(0);

    await page.goto('/appointments?limit=100');
    await page.getByRole('heading', { name: 'Termine', level: 1 }).waitFor();
    await settled(page, 'Termine');
    const appointmentCoaches = await column(page, 'Termine', 3);
    expect(appointmentCoaches.length).toBeGreaterThan(0);
    for (const name of appointmentCoaches) expect(coach.name).toContain(name);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("cannot open another coach's client", async () => {
    const page = b.page;
    // A client of another coach, found as the admin.
    const res = await fetch(`${b.baseUrl}/api/admin/client?limit=100&showClosedSessions=true`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const { clients } = (await res.json()) as {
      clients: Array<{ id: string; coachedBy: { id: string } | null }>;
    };
    const other = clients.find((c) => c.coachedBy && c.coachedBy.id !== coach.id)!;
    await openAs(page, coachToken, `/clients/${other.id}`);
    await page
      .getByRole('alert')
      .getByText('Der Eintrag wurde nicht gefunden oder ist für Sie nicht sichtbar.')
      .waitFor();
  });

  it('finds the calendar subscription on the profile: creates it, copies it, renews it', async () => {
    const page = b.page;
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.baseUrl });
    await openAs(page, coachToken, '/profile');
    const feed = page.getByRole('region', { name: 'Kalender abonnieren' });
    await feed.getByText('Outlook', { exact: true }).waitFor();
    for (const app of ['Apple Kalender (Mac, iPhone, iPad)', 'Google Kalender'])
      await feed.getByText(app, { exact: true }).waitFor();
    // A link from an earlier run is renewed; a first one is created at once.
    const renew = feed.getByRole('button', { name: 'Link erneuern' });
    await feed
      .getByRole('button', { name: /Abo-Link erstellen|Link erneuern/ })
      .first()
      .waitFor();
    if (await renew.isVisible()) {
      await renew.click();
      await page
        .getByRole('alertdialog')
        .getByRole('button', { name: 'Ja, Link erneuern' })
        .click();
    } else {
      await feed.getByRole('button', { name: 'Abo-Link erstellen' }).click();
    }
    const address = feed.getByLabel('Ihr Abo-Link');
    await address.waitFor();
    const first = await address.inputValue();
    expect(first).toMatch(/\/calendar-feed\/[^/]+$/);
    const ics = await fetch(first.replace(/^https?:\/\/[^/]+/, b.baseUrl));
    expect(ics.status).toBe(200);
    expect(await ics.text()).toContain('BEGIN:VCALENDAR');
    await feed.getByRole('button', { name: 'Link kopieren' }).click();
    await feed.getByText('Kopiert.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Renewing asks first; then the old address stops working.
    await renew.click();
    const question = page.getByRole('alertdialog');
    await question.getByText(/funktioniert dann sofort nicht mehr/).waitFor();
    await question.getByRole('button', { name: 'Ja, Link erneuern' }).click();
    await expect.poll(() => address.inputValue()).not.toBe(first);
    expect((await fetch(first.replace(/^https?:\/\/[^/]+/, b.baseUrl))).status).toBe(404);
    expect(b.pageErrors).toEqual([]);
  });
});

describe('an admin', () => {
  it('filters appointments; the filters survive a reload; pages move on', async () => {
    const page = b.page;
    await openAs(page, adminToken, '/appointments');
    await page.getByRole('heading', { name: 'Termine', level: 1 }).waitFor();
    await settled(page, 'Termine');
    expect(await seriousAxeViolations(page)).toEqual([]);

    const requests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/appointments') requests.push(r.url());
    });
    await page.getByLabel('Terminart').selectOption('initial');
    await page.getByLabel('Reihenfolge').selectOption('desc');
    await page.getByRole('button', { name: 'Filter anwenden' }).click();
    await page.waitForURL(/appointmentType=initial/);
    await settled(page, 'Termine');
    // Two filters changed at once: one request.
    expect(requests).toHaveLength(1);
    expect(search(page).get('sortDirection')).toBe('desc');
    const types = await column(page, 'Termine', 1);
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['Erstgespräch']));
    // German date and 24-hour time, Berlin.
    const when = await column(page, 'Termine', 0);
    for (const w of when) expect(w).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}–\d{2}:\d{2}$/);
    const dates = when.map((w) => w.slice(6, 10) + w.slice(3, 5) + w.slice(0, 2) + w.slice(12, 17));
    expect([...dates].sort().reverse()).toEqual(dates);

    await page.reload();
    await settled(page, 'Termine');
    expect(await page.getByLabel('Terminart').inputValue()).toBe('initial');
    expect(await page.getByLabel('Reihenfolge').inputValue()).toBe('desc');
    expect(new Set(await column(page, 'Termine', 1))).toEqual(new Set(['Erstgespräch']));

    const pager = page.getByRole('navigation', { name: 'Seiten' });
    if (await pager.getByRole('button', { name: 'Nächste Seite' }).isEnabled()) {
      requests.length = 0;
      await pager.getByRole('button', { name: 'Nächste Seite' }).click();
      await page.waitForURL(/page=2/);
      await settled(page, 'Termine');
      expect(requests).toHaveLength(1);
      await pager.getByText('Seite 2 von').waitFor();
      await page.goBack();
      await page.waitForURL((url) => !url.searchParams.has('page'));
      await pager.getByText('Seite 1 von').waitFor();
    }
  });

  it('filters clients, opens one, and a bad edit changes nothing; a good one is saved', async () => {
    const page = b.page;
    await openAs(page, adminToken, '/clients');
    await page.getByRole('heading', { name: 'Klient:innen', level: 1 }).waitFor();
    await settled(page, 'Klient:innen');
    const firstName = (await column(page, 'Klient:innen', 0))[0]!.split(', ')[0]!;
    await page.getByLabel('Suche (Name, E-Mail, Versichertennummer)').fill(firstName);
    await page.getByLabel('Sortieren nach').selectOption('lastName');
    await page.getByLabel('Richtung').selectOption('asc');
    await page.getByRole('button', { name: 'Filter anwenden' }).click();
    await page.waitForURL(/search=/);
    await settled(page, 'Klient:innen');
    await page.reload();
    await settled(page, 'Klient:innen');
    expect(await page.getByLabel('Suche (Name, E-Mail, Versichertennummer)').inputValue()).toBe(
      firstName,
    );
    expect(await page.getByLabel('Sortieren nach').inputValue()).toBe('lastName');
    const names = await column(page, 'Klient:innen', 0);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n.toLowerCase()).toContain(firstName.toLowerCase());
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('region', { name: 'Klient:innen' }).getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Angaben' }).waitFor();
    const clientUrl = page.url();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const cityBefore = await page.locator('dt:text-is("Adresse") + dd').innerText();

    await page.getByRole('link', { name: 'Bearbeiten' }).click();
    const year = page.getByRole('textbox', { name: 'Geburtsjahr' });
    await year.waitFor();
    await year.fill('12');
    await page.getByRole('textbox', { name: 'Ort' }).fill('Nirgendwo');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page
      .locator('#field-yearOfBirth-error')
      .getByText(
        'Bitte ein plausibles Geburtsjahr angeben (vierstellig, höchstens 110 Jahre zurück, nicht in der Zukunft).',
      )
      .waitFor();
    expect(await year.getAttribute('aria-invalid')).toBe('true');
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Nothing was saved.
    await page.goto(clientUrl);
    await page.getByRole('heading', { name: 'Angaben' }).waitFor();
    expect(await page.locator('dt:text-is("Adresse") + dd').innerText()).toBe(cityBefore);

    await page.getByRole('link', { name: 'Bearbeiten' }).click();
    await page.getByRole('textbox', { name: 'Ort' }).fill('Potsdam');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText('Die Änderungen sind gespeichert.').waitFor();
    await page.waitForURL(clientUrl);
    await page.locator('dt:text-is("Adresse") + dd', { hasText: 'Potsdam' }).waitFor();
  });

  it('a list tries again by itself 5 s after a network error, and refreshes when the window regains focus', async () => {
    const page = b.page;
    const lastName = `Fokus${Date.now().toString(36)}`;
    // The list's first request fails as on a dropped connection; later ones go through.
    let attempts = 0;
    await page.route(
      (url) => url.pathname === '/api/admin/client',
      (route) => (attempts++ === 0 ? route.abort('internetdisconnected') : route.continue()),
    );
    await openAs(page, adminToken, `/clients?search=${lastName}`);
    await page.getByRole('heading', { name: 'Klient:innen', level: 1 }).waitFor();
    await page.getByText('Keine Verbindung zum Server.', { exact: false }).waitFor();
    const failedAt = Date.now();
    // Nobody clicks: the list answers again after about 5 s (no one of that name yet).
    await expect.poll(() => attempts, { timeout: 10_000 }).toBe(2);
    expect(Date.now() - failedAt).toBeGreaterThan(3_000);
    await page
      .getByText('Keine Verbindung zum Server.', { exact: false })
      .waitFor({ state: 'detached' });
    await settled(page, 'Klient:innen');
    await page.unroute((url) => url.pathname === '/api/admin/client');
    const rows = page.getByRole('region', { name: 'Klient:innen' }).locator('tbody tr');
    expect(await rows.count()).toBe(0);

    // Someone else adds that client; the list is older than 5 s when the window regains focus.
    const created = await fetch(`${b.baseUrl}/api/admin/client`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Frieda', lastName, clientType: 'self' }),
    });
    expect(created.status).toBe(201);
    await page.waitForTimeout(5_500);
    expect(await rows.count()).toBe(0);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await rows.filter({ hasText: lastName }).waitFor({ timeout: 5_000 });
    expect(b.pageErrors).toEqual([]);
  });

  it('lists appointments from today on; a past one shows as held and offers no cancelling', async () => {
    const page = b.page;
    await openAs(page, adminToken, '/appointments?limit=100');
    await page.getByRole('heading', { name: 'Termine', level: 1 }).waitFor();
    await settled(page, 'Termine');
    await page.getByText('Es werden die Termine ab heute gezeigt.').waitFor();
    const berlinDay = (d: Date) => d.toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
    const today = berlinDay(new Date());
    const days = (await column(page, 'Termine', 0)).map((when) => {
      const [dd, mm, yyyy] = when.slice(0, 10).split('.');
      return `${yyyy}-${mm}-${dd}`;
    });
    expect(days.length).toBeGreaterThan(0);
    for (const day of days) expect(day >= today).toBe(true);
    expect(await page.getByText('Geplant', { exact: true }).count()).toBeGreaterThan(0);

    // "Vergangene anzeigen" reaches the past and keeps it in the address.
    await page.getByRole('button', { name: 'Vergangene anzeigen' }).click();
    await page.waitForURL(/past=true/);
    await settled(page, 'Termine');

    // A past appointment that was held: "Stattgefunden", and only the no-show is offered.
    const yesterday = berlinDay(new Date(Date.now() - 24 * 60 * 60_000));
    await page.goto(
      `/appointments?to=${yesterday}&cancelled=false&noShow=false&sortDirection=desc`,
    );
    await settled(page, 'Termine');
    const list = page.getByRole('region', { name: 'Termine' });
    await list.getByText('Stattgefunden', { exact: true }).first().waitFor();
    expect(await list.getByText('Geplant', { exact: true }).count()).toBe(0);
    await list.locator('table.staff-table tbody tr').first().getByRole('link').first().click();
    await page.getByRole('button', { name: 'Als nicht erschienen markieren' }).waitFor();
    await page.locator('dd').getByText('Stattgefunden', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Termin absagen' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Einladungen erneut senden' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });

  it('"Anstehende Termine" lists none that have ended; cancels an appointment only after confirming', async () => {
    // One that ended minutes ago (today, unless just after midnight) and one that starts soon.
    const ended = await bookNear(adminToken, Date.now() - 15 * 60_000, 5, -7);
    const soon = await bookNear(adminToken, Date.now() + 3 * 60_000, 5, 7);
    // The messages below include an SMS row; the day's first demo client may have SMS off.
    const sms = await fetch(`${b.baseUrl}/api/admin/client/${soon.clientId}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ telephone: '0170 5550123', notifyViaSms: true }),
    });
    expect(sms.status).toBe(200);
    expect(Date.parse(ended.endDate)).toBeLessThan(Date.now());
    const page = b.page;
    const openedAt = Date.now();
    await openAs(page, adminToken, '/cancel-appointment');
    await page.getByRole('heading', { name: 'Termin absagen', level: 1 }).waitFor();
    await settled(page, 'Anstehende Termine');
    const upcoming = page.getByRole('region', { name: 'Anstehende Termine' });
    await upcoming.locator(`a[href="/cancel-appointment/${soon.id}"]`).waitFor();
    expect(await upcoming.locator(`a[href="/cancel-appointment/${ended.id}"]`).count()).toBe(0);
    // Nothing listed has ended (or even started): every row's time lies ahead.
    const berlinNow = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Berlin',
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(new Date(openedAt));
    const starts = (await column(page, 'Anstehende Termine', 0)).map((when) => {
      const [dd, mm, yyyy] = when.slice(0, 10).split('.');
      return `${yyyy}-${mm}-${dd} ${when.slice(12, 17)}`;
    });
    expect(starts.length).toBeGreaterThan(0);
    for (const start of starts) expect(start >= berlinNow).toBe(true);
    await page
      .getByRole('region', { name: 'Anstehende Termine' })
      .getByRole('link', { name: 'Absagen' })
      .first()
      .click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(/Möchten Sie den Termin am .* wirklich absagen\?/).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await page
      .getByText('Geplant', { exact: true })
      .or(page.getByText('Vorläufig', { exact: true }))
      .waitFor();

    await page.getByRole('button', { name: 'Termin absagen' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Ja, Termin absagen' }).click();
    await page.getByText('Der Termin ist abgesagt.').waitFor();
    await page.getByText(/^Abgesagt am \d{2}\.\d{2}\.\d{4}$/).waitFor();
    // The cancellation notice shows among the messages.
    expect(await page.getByRole('button', { name: 'Termin absagen' }).count()).toBe(0);
    // The messages name their subject in German (e-mail and SMS rows alike), never a template id.
    await page.reload();
    const messages = page.getByRole('region', { name: 'Nachrichten' });
    await messages.getByText('Terminabsage').first().waitFor();
    const cells = await messages.locator('td').allInnerTexts();
    expect(cells.filter((text) => /^[a-z]+(_[a-z0-9]+)+$/.test(text.trim()))).toEqual([]);
    // A cancelled appointment is no no-show either.
    expect(await page.getByRole('button', { name: 'Als nicht erschienen markieren' }).count()).toBe(
      0,
    );
    expect(b.pageErrors).toEqual([]);
  });

  it('onboards a new client with their initial appointment in one flow', async () => {
    const page = b.page;
    const onboarding = await signInByPasscode(b.baseUrl, 'onboarding@sprechstunde.demo');
    await openAs(page, onboarding, '/pre-appointment/new');
    await page
      .getByRole('heading', { name: 'Neue:r Klient:in mit Erstgespräch', level: 1 })
      .waitFor();
    await page.getByRole('textbox', { name: 'Vorname' }).fill('Erna');
    await page.getByRole('textbox', { name: 'Nachname' }).fill('Onboarding');
    await page.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill('kein-at-zeichen');
    await page.getByRole('button', { name: 'Anlegen und Termin wählen' }).click();
    await page
      .getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein, z. B. name@beispiel.de.')
      .waitFor();
    await page.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill('erna.onboarding@example.org');
    await page.getByRole('button', { name: 'Anlegen und Termin wählen' }).click();
    await page.getByRole('heading', { name: 'Erstgespräch für Erna Onboarding wählen' }).waitFor();
    // This week may have no free initial slots left; the next one has.
    await page.getByRole('button', { name: 'Nächste Woche' }).click();
    const slot = page.getByRole('button', { name: /^Freier Termin / }).first();
    await slot.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await slot.click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: 'Erstgespräch buchen' })
      .click();
    await page.getByRole('heading', { name: 'Erstgespräch gebucht' }).waitFor();
    await page.getByRole('link', { name: 'Termin öffnen' }).click();
    await page.getByRole('heading', { name: 'Termin', level: 1 }).waitFor();
    await page.getByText('Erstgespräch', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Erna Onboarding' }).waitFor();
  });

  it('/appointments/abc leads to the list, keeping its query', async () => {
    const page = b.page;
    await openAs(page, adminToken, '/appointments/abc?appointmentType=followup');
    await page.waitForURL((url) => url.pathname === '/appointments');
    expect(search(page).get('appointmentType')).toBe('followup');
    await page.getByRole('heading', { name: 'Termine', level: 1 }).waitFor();
  });
});

describe('where staff land', () => {
  it('a coach lands on "Heute" with name and role in the header and a join link for the open room', async () => {
    // An appointment of this coach whose room is open now (it starts in five minutes).
    // "Heute" is the Berlin day: near midnight, an appointment minutes ahead is tomorrow's,
    // so then take one that started minutes ago (its room is open until 30 min after its end).
    const berlinDay = (ms: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(ms));
    const ahead = berlinDay(Date.now()) === berlinDay(Date.now() + 15 * 60_000);
    // Five tries ahead at most: a start more than ten minutes ahead would not have its room
    // open yet. Behind, a start up to 26 minutes ago still has its room open (2 minutes long,
    // open until 30 minutes after its end). When the demo data's hour-long appointment fills
    // both, that appointment is the one whose room is open now.
    const booked =
      (ahead
        ? await bookNear(coachToken, Date.now() + 5 * 60_000, 2, 1, 5).catch(() => undefined)
        : undefined) ??
      (await bookNear(coachToken, Date.now() - 8 * 60_000, 2, -3, 7).catch(() => undefined));
    const created = booked ?? (await runningAppointment());

    const page = b.page;
    await openAs(page, coachToken, '/');
    await page.waitForURL(/\/today$/);
    await page.getByRole('heading', { name: 'Heute', level: 1 }).waitFor();
    const header = page.getByTestId('signed-in-as');
    expect(await header.innerText()).toBe(`${coach.name} (Coach)`);
    // Video meetings are in the menu.
    expect(await page.getByRole('link', { name: 'Videotermine' }).getAttribute('href')).toBe(
      '/coach/meeting',
    );

    const item = page.getByTestId('today-appointment').filter({
      has: page.locator(`a[href="/appointments/${created.id}"]`),
    });
    const join = item.getByRole('link', { name: /^Videotermin beitreten: .+$/ });
    expect(await join.getAttribute('href')).toMatch(/^\/coach\/meeting\/[^/]+\/join$/);
    expect(
      await page.getByRole('list', { name: 'Auf einen Blick' }).getByRole('link').count(),
    ).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The appointment's page leads into the meeting too.
    await item.getByRole('link', { name: /^Details zum Termin/ }).click();
    await page.getByRole('link', { name: 'Videotermin beitreten' }).waitFor();
    expect(
      await page.getByRole('link', { name: 'Videotermin öffnen' }).getAttribute('href'),
    ).toMatch(/^\/coach\/meeting\/[^/]+$/);
  });
});
