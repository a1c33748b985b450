import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { coachOf, openSignedIn, signInByPasscode } from '../support/e2e-sign-in';
import { icsOf, startRadicale, type Radicale } from '../support/radicale';
import { startReceiver } from '../support/webhook-receiver';
import { startTestServer } from '../../server/testing/start-test-server';

/**
 * The superadmin area in Chromium: from the dashboard to "Verwaltung", a webhook
 * pointed at a local receiver, its secret copied (shown once), a test event that arrives
 * signed with that secret and shows in the delivery log, delivered again with the same
 * webhook-id; then the e-mail sync with its counts.
 *
 * Deliveries need the job workers, which the shared e2e server runs without (tests elsewhere
 * count on jobs staying put), and a receiver on 127.0.0.1, which only
 * WEBHOOK_ALLOW_PRIVATE_TARGETS allows: this file starts its own app with both. A coach's
 * connected calendar needs the same (its busy times are read by a job, from a CalDAV server on
 * 127.0.0.1 that only CALENDAR_ALLOW_PRIVATE_SERVERS allows), so its journey runs here too
 * rather than in an app of its own.
 */
const b = useBrowser();

const SUPERADMIN = 'superadmin@sprechstunde.demo';
let token: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let server: Awaited<ReturnType<typeof startTestServer>>;
/** This file's own app (not the shared one of `b.baseUrl`). */
let app: string;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      JOBS_WORKERS: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      CALENDAR_ALLOW_PRIVATE_SERVERS: 'true',
    },
  });
  app = server.url;
  token = await signInByPasscode(app, SUPERADMIN);
  receiver = await startReceiver();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

const log = (page: Page) => page.getByRole('region', { name: 'Zustellprotokoll' });
const noSeriousViolations = async (page: Page) =>
  expect(await seriousAxeViolations(page)).toEqual([]);

describe('the superadmin area', () => {
  it('sets up a webhook, copies its secret, sends a test event and delivers it again, then syncs e-mail addresses', async () => {
    const page = b.page;
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app });
    await openSignedIn(page, app, token, `${app}/dashboard`);
    await page.getByRole('heading', { name: 'Admin (Dashboard)', level: 1 }).waitFor();
    await expect
      .poll(async () =>
        page
          .getByRole('navigation', { name: 'Hauptnavigation' })
          .getByRole('link', { name: 'Verwaltung' })
          .count(),
      )
      .toBe(1);
    await page.getByRole('link', { name: /^Zur Verwaltung/ }).click();
    await page.getByRole('heading', { name: 'Verwaltung', level: 1 }).waitFor();
    const hub = page.getByRole('list', { name: 'Bereiche der Verwaltung' });
    await hub.getByRole('link', { name: 'Webhooks' }).click();

    // The list: one row per event type, German names.
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Webhooks nach Ereignis' });
    await table.getByRole('link', { name: 'Webhook „Termin gebucht“ bearbeiten' }).waitFor();
    await table
      .getByRole('link', { name: 'Webhook „Zusammenfassung unterschrieben“ bearbeiten' })
      .click();

    // A bad address is named at the field; a good one is saved and its secret shown once.
    await page
      .getByRole('heading', { name: 'Webhook: Zusammenfassung unterschrieben', level: 1 })
      .waitFor();
    const url = page.getByLabel('Adresse (URL)');
    await url.fill('ftp://example.org');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page
      .getByText('Bitte eine vollständige Adresse mit http:// oder https:// angeben')
      .waitFor();
    await url.fill(receiver.url('/hook'));
    expect(await page.getByLabel('Aktiv: Ereignisse an diese Adresse senden').isChecked()).toBe(
      true,
    );
    await page.getByRole('button', { name: 'Speichern' }).click();
    const secretBox = page.getByRole('region', { name: 'Signatur-Geheimnis' });
    await secretBox.getByText('Es wird nur jetzt angezeigt.', { exact: false }).waitFor();
    const shown = (await page.getByTestId('webhook-secret').textContent())!.trim();
    expect(shown).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    await secretBox.getByRole('button', { name: 'Geheimnis kopieren' }).click();
    await secretBox.getByText('Kopiert.').waitFor();
    const secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toBe(shown);
    await noSeriousViolations(page);
    await secretBox.getByRole('button', { name: 'Ich habe es gespeichert' }).click();
    await secretBox.waitFor({ state: 'detached' });

    // The test event arrives signed with the copied secret and shows as delivered.
    await page.getByRole('button', { name: 'Testereignis senden' }).click();
    await page.getByText('Das Testereignis ist unterwegs', { exact: false }).waitFor();
    await until(() => receiver.received.length >= 1, 'the test event at the receiver');
    const first = receiver.received[0]!;
    const payload = new Webhook(secret).verify(
      first.body,
      first.headers as Record<string, string>,
    ) as {
      type: string;
    };
    expect(payload.type).toBe('webhook.test');
    const webhookId = first.headers['webhook-id'] as string;
    const message = log(page).locator(`[data-message-id="${webhookId}"]`);
    await message.getByText('zugestellt', { exact: true }).waitFor({ timeout: 20_000 });
    await message.getByRole('heading', { name: /^Testereignis vom / }).waitFor();
    const rows = message.getByRole('table', { name: 'Zustellversuche' }).locator('tbody tr');
    expect(await rows.count()).toBe(1);
    await expect.poll(() => rows.first().textContent()).toContain('200');

    // Delivered again: the same webhook-id, a second (manual) attempt after a refresh.
    await message.getByRole('button', { name: 'Erneut zustellen' }).click();
    await page.getByText('Nachricht wird erneut zugestellt.').waitFor();
    await until(() => receiver.received.length >= 2, 'the second delivery at the receiver');
    expect(receiver.received[1]!.headers['webhook-id']).toBe(webhookId);
    new Webhook(secret).verify(
      receiver.received[1]!.body,
      receiver.received[1]!.headers as Record<string, string>,
    );
    await until(async () => {
      if ((await rows.count()) >= 2) return true;
      await log(page).getByRole('button', { name: 'Aktualisieren' }).click();
      await log(page).and(page.locator('[aria-busy="false"]')).waitFor();
      return (await rows.count()) >= 2;
    }, 'the second attempt in the log');
    await expect.poll(() => rows.nth(1).textContent()).toContain('manuell');
    await noSeriousViolations(page);

    // The list shows the endpoint as active with its last delivery, from one call.
    const calls: string[] = [];
    const count = (request: { url(): string }) => {
      if (request.url().includes('/api/admin/webhook')) calls.push(new URL(request.url()).pathname);
    };
    page.on('request', count);
    await page.getByRole('link', { name: 'Zurück zu den Webhooks' }).click();
    const row = page
      .getByRole('table', { name: 'Webhooks nach Ereignis' })
      .getByRole('row')
      .filter({
        has: page.getByRole('link', {
          name: 'Webhook „Zusammenfassung unterschrieben“ bearbeiten',
        }),
      });
    await row.getByText(receiver.url('/hook')).waitFor();
    await row.getByText('aktiv', { exact: true }).waitFor();
    await row.getByText('zugestellt').waitFor();
    await row.getByText(/HTTP 200/).waitFor();
    page.off('request', count);
    expect(calls).toEqual(['/api/admin/webhook']);
    await noSeriousViolations(page);

    // The e-mail sync: the button, then the counts.
    await page.goto(`${app}/admin`);
    await page
      .getByRole('list', { name: 'Bereiche der Verwaltung' })
      .getByRole('link', { name: 'E-Mail-Abgleich' })
      .click();
    await page.getByRole('heading', { name: 'E-Mail-Abgleich', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'E-Mail-Adressen abgleichen' }).click();
    await page.getByRole('heading', { name: 'Ergebnis', level: 2 }).waitFor();
    const checked = page
      .locator('dl.sync-result dt', { hasText: 'Geprüfte Konten' })
      .locator('xpath=following-sibling::dd[1]');
    expect(Number((await checked.textContent())!.replace(/\D/g, ''))).toBeGreaterThan(0);
    await noSeriousViolations(page);
  }, 120_000);

  it('tells an admin and a superadmin what applies to each; the help page shows guides, not empty players', async () => {
    // The admin in a browser of their own (the stored session is per browser).
    const adminToken = await signInByPasscode(app, 'admin@sprechstunde.demo');
    const page = await (await b.newContext()).newPage();
    await openSignedIn(page, app, adminToken, `${app}/admin`);
    await page.getByRole('heading', { name: 'Verwaltung', level: 1 }).waitFor();
    const intro = (p: Page) => p.locator('main h1 + p');
    const links = (p: Page) => p.getByRole('list', { name: 'Bereiche der Verwaltung' });
    // An admin's tasks are theirs: not described as the superadmins' alone.
    await links(page).getByRole('link', { name: 'Krankenkassen' }).waitFor();
    expect(await intro(page).textContent()).toMatch(/^Die gepflegten Listen/);
    expect(await links(page).getByText('nur Superadmins').count()).toBe(0);
    await noSeriousViolations(page);

    // No video host is configured here: written guides, no players, no placeholder host allowed.
    const res = await fetch(`${app}/help`);
    expect(res.headers.get('content-security-policy')).toContain("media-src 'self';");
    await page.goto(`${app}/help`);
    await page.getByRole('heading', { name: 'Hilfe', level: 1 }).waitFor();
    expect(await page.locator('main video').count()).toBe(0);
    const guide = page.getByRole('list', { name: 'Anmelden und Konto aktivieren' });
    expect(await guide.getByRole('listitem').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('main h2').allTextContents()).toEqual([
      'Anmelden und Konto aktivieren',
      'Termine und Kalender verwalten',
      'Klient:innen anlegen und betreuen',
      'Videotermine durchführen',
    ]);
    await noSeriousViolations(page);

    const sa = b.page;
    await openSignedIn(sa, app, token, `${app}/admin`);
    await links(sa).getByRole('link', { name: 'Webhooks' }).waitFor();
    expect(await intro(sa).textContent()).toMatch(/^Alles, was Admins pflegen/);
    // The superadmin's own tasks are marked as such, the shared ones are not.
    const marked = links(sa).getByRole('listitem').filter({ hasText: '(nur Superadmins)' });
    expect((await marked.getByRole('link').allTextContents()).sort()).toEqual([
      'E-Mail-Abgleich',
      'Praxisdaten',
      'Webhooks',
    ]);
    await noSeriousViolations(sa);
  }, 120_000);

  it('shows the research consent count, then downloads the export as a ZIP', async () => {
    const page = b.page;
    await openSignedIn(page, app, token, `${app}/admin`);
    await page
      .getByRole('list', { name: 'Bereiche der Verwaltung' })
      .getByRole('link', { name: 'Forschungsexport' })
      .click();
    await page.getByRole('heading', { name: 'Forschungsexport', level: 1 }).waitFor();
    const count = page
      .locator('dl.sync-result dt', { hasText: 'Klient:innen mit Einwilligung zur Forschung' })
      .locator('xpath=following-sibling::dd[1]');
    await count.waitFor();
    expect(Number((await count.textContent())!.replace(/\D/g, ''))).toBeGreaterThan(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'ZIP herunterladen' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^forschungsdaten-\d{4}-\d{2}-\d{2}\.zip$/);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 2).toString('latin1')).toBe('PK');
    await page.getByText('Der Export wurde heruntergeladen.').waitFor();
    await noSeriousViolations(page);
  }, 120_000);

  it('keeps the practice details that the imprint and the privacy notice show, styled, at 375 and 1440 px', async () => {
    const page = b.page;
    await openSignedIn(page, app, token, `${app}/admin`);
    await page
      .getByRole('list', { name: 'Bereiche der Verwaltung' })
      .getByRole('link', { name: 'Praxisdaten' })
      .click();
    await page.getByRole('heading', { name: 'Praxisdaten', level: 1 }).waitFor();
    const name = page.getByLabel('Name der Praxis');
    await expect.poll(() => name.inputValue()).toBe('Sprechstunde Gesundheitscoaching GmbH');
    await noSeriousViolations(page);
    // Bad input is named at its field, and nothing is saved.
    await page.getByLabel('USt-IdNr.').fill('');
    await page.getByLabel('Steuernummer').fill('');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText('Bitte die Steuernummer oder die USt-IdNr. angeben').waitFor();
    await page.getByLabel('USt-IdNr.').fill('DE123456789');
    await name.fill('Praxis am Kanal GmbH');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText('Die Praxisdaten wurden gespeichert.').waitFor();
    await page.waitForURL((url) => url.pathname === '/admin');

    // Signed out, as a client would: the footer's links lead to real pages of the app.
    for (const width of [375, 1440]) {
      const visitor = await (await b.newContext({ viewport: { width, height: 900 } })).newPage();
      const blocked: string[] = [];
      visitor.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy/i.test(m.text()))
          blocked.push(m.text());
      });
      await visitor.goto(`${app}/impressum`);
      await visitor.getByRole('heading', { name: 'Impressum', level: 1 }).waitFor();
      const imprint = visitor.locator('.legal-page');
      await imprint.getByText('Praxis am Kanal GmbH').waitFor();
      for (const text of [
        'Angaben gemäß § 5 DDG',
        'Dr. med. Anna Beispiel',
        'Amtsgericht Charlottenburg',
        'HRB 234567 B',
        'DE123456789',
      ]) {
        await imprint.getByText(text, { exact: false }).first().waitFor();
      }
      expect(await imprint.innerText()).not.toContain('VITE_');
      await visitor.getByRole('contentinfo').getByRole('link', { name: 'Datenschutz' }).click();
      await visitor.getByRole('heading', { name: 'Datenschutzerklärung', level: 1 }).waitFor();
      const privacy = visitor.locator('.legal-page');
      await privacy
        .getByText('Verantwortlich ist Praxis am Kanal GmbH, Invalidenstraße 12, 10115 Berlin.')
        .waitFor();
      const text = await privacy.innerText();
      for (const covered of [
        'Art. 9 DSGVO',
        'Jitsi',
        'SMS',
        'Hosting',
        'Tag-Manager',
        'pseudonymisiert',
        '§ 630f',
        'Art. 15 DSGVO',
        'Art. 21 DSGVO',
        'Berliner Beauftragte für Datenschutz',
      ]) {
        expect(text).toContain(covered);
      }
      expect(await privacy.locator('h2').count()).toBe(15);
      // The app's styles apply (no inline style, which the CSP blocks): a readable column.
      expect(await privacy.evaluate((el) => getComputedStyle(el).maxWidth)).toBe('704px');
      expect(
        await visitor.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      expect(blocked).toEqual([]);
      await noSeriousViolations(visitor);
      await visitor.screenshot({
        path: `/tmp/privacy-${width}.png`,
        fullPage: width === 375 ? false : true,
      });
      if (process.env.SCREENSHOTS === '1' && width === 375) {
        mkdirSync('docs/screenshots', { recursive: true });
        await visitor.screenshot({ path: 'docs/screenshots/privacy.png' });
      }
    }
    // Back to the demo name for the other tests of this server.
    await fetch(`${app}/api/admin/practice-settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Sprechstunde Gesundheitscoaching GmbH' }),
    });
  }, 180_000);
});

describe("a coach's connected calendar", () => {
  const COACH = 'coach1@sprechstunde.demo';
  /** The demo client: coach1's, with an Erstgespräch in the coming days to move. */
  const CLIENT = 'klient@sprechstunde.demo';
  const user = { name: 'lena', password: 'app-passwort-e2e' };
  const HALF_HOUR = 30 * 60_000;
  let radicale: Radicale;
  let coachToken: string;
  let clientToken: string;
  let coachId: string;

  beforeAll(async () => {
    [radicale, coachToken, clientToken] = await Promise.all([
      startRadicale([user]),
      signInByPasscode(app, COACH),
      signInByPasscode(app, CLIENT),
    ]);
    coachId = (await coachOf(app, coachToken)).id;
  }, 60_000);

  afterAll(async () => {
    await radicale?.close();
  });

  async function get<T>(path: string, bearer: string): Promise<T> {
    const res = await fetch(`${app}/api${path}`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  }

  const day = 86_400_000;
  const range = (from: number, days: number, duration: number) =>
    new URLSearchParams({
      startDate: new Date(from).toISOString(),
      endDate: new Date(from + days * day).toISOString(),
      duration: String(duration),
    });

  /** The coach's own free half-hour starts in the client's four weeks (staff see these). */
  async function slotStarts(): Promise<string[]> {
    const { slots } = await get<{ slots: Array<{ startDate: string }> }>(
      `/admin/calendar/available_slots/${coachId}?${range(Date.now(), 28, 30)}`,
      coachToken,
    );
    return slots.map((s) => s.startDate);
  }

  /**
   * A start the client's reschedule offers with coach1, half an hour after another such start,
   * at which no other coach of the initial-meetings pool is free: a private half hour there
   * takes the start away from the client altogether, and leaves the next one with coach1.
   */
  async function coachOnlyStart(appointmentId: string): Promise<string> {
    const now = Date.now();
    const admin = await signInByPasscode(app, 'admin@sprechstunde.demo');
    type Slot = { startDate: string; coachId: string };
    const [offered, all, pool] = await Promise.all([
      get<{ slots: Slot[] }>(
        `/client/initial_appointment_slots?${range(now, 28, 30)}&rescheduleOf=${appointmentId}`,
        clientToken,
      ),
      get<{ slots: Slot[] }>(`/admin/calendar/available_slots?${range(now, 28, 30)}`, admin),
      get<{ coaches: Array<{ id: string; takesInitialAppointments: boolean }> }>(
        '/coach?limit=100',
        admin,
      ),
    ]);
    const others = new Set(
      pool.coaches.filter((c) => c.takesInitialAppointments && c.id !== coachId).map((c) => c.id),
    );
    const busyElsewhere = new Set(
      all.slots.filter((s) => others.has(s.coachId)).map((s) => Date.parse(s.startDate)),
    );
    const coach1 = new Set(
      offered.slots.filter((s) => s.coachId === coachId).map((s) => Date.parse(s.startDate)),
    );
    const start = [...coach1].find((at) => coach1.has(at + HALF_HOUR) && !busyElsewhere.has(at));
    expect(start, 'a start only coach1 offers, with a free half hour after it').toBeDefined();
    return new Date(start!).toISOString();
  }

  const icsTime = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const berlin = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', ...options });
  /** The client picker's day button ("Mo., 14.12.") and time button ("08:30 Uhr"). */
  const dayLabel = (iso: string) =>
    berlin({ weekday: 'short', day: '2-digit', month: '2-digit' }).format(new Date(iso));
  const timeLabel = (iso: string) =>
    `${berlin({ hour: '2-digit', minute: '2-digit' }).format(new Date(iso))} Uhr`;

  it('connects the calendar on the profile; a private event takes a slot the client cannot choose, and the client’s move arrives in it', async () => {
    const page = b.page;
    const { appointments: upcoming } = await get<{
      appointments: Array<{ id: string; coach: { id: string } }>;
    }>('/client/initial_appointment', clientToken);
    const appointment = upcoming.find((a) => a.coach.id === coachId)!;
    expect(appointment, "the demo client's Erstgespräch with coach1").toBeDefined();
    const privat = await radicale.makeCalendar(user, 'privat', 'Privat');
    await radicale.makeCalendar(user, 'geburtstage', 'Geburtstage');
    const taken = await coachOnlyStart(appointment.id);
    const end = new Date(Date.parse(taken) + HALF_HOUR).toISOString();
    expect(await slotStarts()).toContain(taken);
    await radicale.putEvent(
      privat,
      user,
      'zahnarzt',
      icsOf(
        'BEGIN:VEVENT',
        'UID:zahnarzt',
        'DTSTAMP:20261201T000000Z',
        'SUMMARY:Zahnarzt',
        `DTSTART:${icsTime(taken)}`,
        `DTEND:${icsTime(end)}`,
        'END:VEVENT',
      ),
    );

    await openSignedIn(page, app, coachToken, `${app}/profile`);
    const section = page.getByRole('region', { name: 'Verbundene Kalender' });
    const form = section.getByRole('form', { name: 'Kalender verbinden' });
    await form.waitFor();
    for (const provider of ['Nextcloud', 'Apple iCloud', 'Google Kalender'])
      await section.getByText(provider, { exact: true }).waitFor();
    await section.getByText(/Google lässt über CalDAV nur eine Anmeldung per OAuth zu/).waitFor();

    // A wrong app password: the server's refusal in German, at the password.
    await form.getByLabel('Serveradresse').fill(radicale.url);
    await form.getByLabel('Benutzername').fill(user.name);
    await form.getByLabel('App-Passwort').fill('falsch');
    await form.getByRole('button', { name: 'Verbinden' }).click();
    const refusal = form.getByText(/hat Benutzername oder App-Passwort abgelehnt/);
    await refusal.waitFor({ timeout: 20_000 });
    await section.screenshot({ path: '/tmp/calendar-connections-form.png' });
    expect(await form.getByLabel('App-Passwort').getAttribute('aria-describedby')).toContain(
      'calendar-connect-password-error',
    );
    await form.getByLabel('App-Passwort').fill(user.password);
    await form.getByRole('button', { name: 'Verbinden' }).click();

    // The calendars found behind the address; "Privat" blocks the free times and receives the
    // appointments. Receiving first: that queues the write of every upcoming appointment of
    // coach1, which then runs while the client chooses.
    const card = section.getByRole('article', {
      name: `${user.name} bei 127.0.0.1:${radicale.port}`,
    });
    await card.waitFor({ timeout: 20_000 });
    await card
      .getByText('Wählen Sie unten, welche Kalender Ihre freien Zeiten blockieren')
      .waitFor();
    await card.getByText('Geburtstage', { exact: true }).waitFor();
    // The switches show what the server saved, so they turn on once it answers.
    const receives = card.getByRole('radio', { name: 'Privat: Erhält meine Termine' });
    await receives.click();
    await expect.poll(() => receives.isChecked()).toBe(true);
    const blocks = card.getByRole('checkbox', { name: 'Privat: Blockiert meine freien Zeiten' });
    await blocks.click();
    await expect.poll(() => blocks.isChecked()).toBe(true);
    // The sync runs in the background; the card follows it.
    await card.getByText('1 belegte Zeit gespeichert.', { exact: false }).waitFor({
      timeout: 30_000,
    });
    await card.getByText(/^Zuletzt abgeglichen: /).waitFor();
    await card.getByText('Verbunden', { exact: true }).waitFor();

    // The client, in a browser of their own, moves the Erstgespräch: the dentist's half hour is
    // not offered on that day, the half hour after it is.
    const client = await (await b.newContext({ locale: 'de-DE' })).newPage();
    await openSignedIn(client, app, clientToken, `${app}/mein-termin`);
    await client.getByRole('link', { name: 'Verschieben' }).click();
    await client.getByRole('heading', { name: 'Ihr bisheriger Termin' }).waitFor();
    await client
      .getByRole('list', { name: 'Tage mit freien Terminen' })
      .getByRole('button', { name: new RegExp(`^${dayLabel(taken).replace(/\./g, '\\.')}`) })
      .click();
    const times = client.getByRole('list', { name: /^Freie Uhrzeiten am / });
    const next = times.getByRole('button', { name: timeLabel(end), exact: true });
    await next.waitFor();
    expect(await times.getByRole('button').allTextContents()).not.toContain(timeLabel(taken));
    await next.click();
    await client.getByRole('heading', { name: 'Verschieben bestätigen' }).waitFor();
    // The same coach: no note that another coach takes over.
    expect(await client.getByText(/ist zu dieser Zeit nicht frei/).count()).toBe(0);
    await client.getByRole('button', { name: 'Termin verschieben' }).click();
    await client.getByRole('heading', { name: 'Ihr Termin wurde verschoben' }).waitFor();
    expect(await seriousAxeViolations(client)).toEqual([]);
    await client.close();

    // The moved appointment in the receiving calendar: "Termin" at the new time, under the
    // invitation's UID, without the client's name or the appointment type.
    const { clients } = await get<{ clients: Array<{ lastName: string }> }>(
      `/admin/client?search=${encodeURIComponent(CLIENT)}`,
      coachToken,
    );
    const lastName = clients[0]!.lastName;
    const written = async () =>
      (await radicale.listEvents(privat, user)).find(
        (e) =>
          e.includes(`appointment-${appointment.id}@`) && e.includes(`DTSTART:${icsTime(end)}`),
      );
    // Queued behind the rewrite of coach1's upcoming appointments (three calendar writes at a
    // time), most of which ran while the client chose.
    await expect.poll(written, { timeout: 30_000, interval: 500 }).toBeDefined();
    const event = (await written())!;
    expect(event).toMatch(/^SUMMARY:Termin\r?$/m);
    expect(event).not.toContain(lastName);

    await card.getByRole('button', { name: 'Jetzt abgleichen' }).click();
    await card.getByRole('button', { name: 'Jetzt abgleichen' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    for (const width of [375, 1440]) {
      const look = await (await b.newContext({ viewport: { width, height: 900 } })).newPage();
      await openSignedIn(look, app, coachToken, `${app}/profile`);
      const shown = look.getByRole('region', { name: 'Verbundene Kalender' });
      await shown.getByText(/^Zuletzt abgeglichen: /).waitFor();
      expect(
        await look.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await shown.screenshot({ path: `/tmp/calendar-connections-${width}.png` });
      await look.close();
    }

    // Disconnecting asks first and says what is deleted; then the dentist's half hour is free again.
    await card.getByRole('button', { name: 'Trennen' }).click();
    const question = section.getByRole('alertdialog');
    await question
      .getByText(/gespeicherte App-Passwort und alle gespeicherten belegten Zeiten/)
      .waitFor();
    await question.getByRole('button', { name: 'Ja, trennen und löschen' }).click();
    await card.waitFor({ state: 'detached' });
    await form.waitFor();
    await expect.poll(slotStarts, { timeout: 15_000 }).toContain(taken);
    expect(b.pageErrors).toEqual([]);
  }, 180_000);
});
