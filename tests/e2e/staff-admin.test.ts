import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { seedSession, signInByPasscode } from '../support/e2e-sign-in';

/**
 * Staff workspace part 2 in Chromium, signed in as the demo accounts: an admin
 * creates a user and sees the activation code once, changes the role (a role above their own is
 * refused in German, nothing changes); a coach sees only the menu items of their role; bad input
 * in the coach form gets German messages at the fields and changes nothing; events filtered by
 * client.
 */
const b = useBrowser();

const COACH = 'coach2@sprechstunde.demo';
const ADMIN = 'admin@sprechstunde.demo';

let coachToken: string;
let adminToken: string;

const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
  const res = await fetch(`${b.baseUrl}/api${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${adminToken}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
  expect(res.ok, `${path}: ${res.status}`).toBe(true);
  return (await res.json()) as T;
};

beforeAll(async () => {
  coachToken = await signInByPasscode(b.baseUrl, COACH);
  adminToken = await signInByPasscode(b.baseUrl, ADMIN);
});

async function openAs(page: Page, token: string, path: string) {
  await seedSession(page.context(), b.baseUrl, token);
  await page.goto(path);
}

async function settled(page: Page, region: string) {
  await page
    .getByRole('region', { name: region })
    .and(page.locator('[aria-busy="false"]'))
    .waitFor();
}

describe('an admin and the users', () => {
  it('creates a user and sees the activation code once, then changes the role; a higher role is refused', async () => {
    const page = b.page;
    const email = `neu-${Date.now()}@example.org`;
    await openAs(page, adminToken, '/users');
    await page.getByRole('heading', { name: 'Benutzer:innen', level: 1 }).waitFor();
    await settled(page, 'Benutzer:innen');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Neue:n Benutzer:in anlegen' }).click();
    await page.getByRole('heading', { name: 'Neue:r Benutzer:in', level: 1 }).waitFor();
    // Bad input first: German messages at the fields, nothing sent.
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/api/user'))
        posts.push(r.url());
    });
    await page.getByLabel('E-Mail-Adresse').fill('kein-at');
    await page.getByRole('button', { name: 'Anlegen und Aktivierungscode erzeugen' }).click();
    await page
      .locator('#field-email-error')
      .getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein')
      .waitFor();
    // A coach account needs its coach record.
    await page
      .locator('#field-coachId-error')
      .getByText('Bitte füllen Sie dieses Feld aus.')
      .waitFor();
    expect(posts).toEqual([]);

    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByLabel('Rolle').selectOption('ONBOARDING_MANAGER');
    await page.getByRole('button', { name: 'Anlegen und Aktivierungscode erzeugen' }).click();
    const code = page.getByTestId('activation-code');
    await code.waitFor();
    const shown = (await code.textContent())!.trim();
    expect(shown.length).toBeGreaterThanOrEqual(6);
    await page.getByText('Der Code wird nur jetzt angezeigt.').waitFor();
    await page.getByRole('status').getByText('Der Zugang ist angelegt.').waitFor();
    await page.getByRole('button', { name: 'Code kopieren' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(posts).toHaveLength(1);

    // The code is not shown again: back at the page, the form is empty.
    await page.reload();
    await page.getByLabel('E-Mail-Adresse').waitFor();
    expect(await page.getByTestId('activation-code').count()).toBe(0);
    expect(await page.content()).not.toContain(shown);

    // The new user in the list; change the role.
    const { users } = await api<{
      users: Array<{ id: string; email: string; role: string; active: boolean }>;
    }>('/user?limit=100');
    const created = users.find((u) => u.email === email)!;
    expect(created).toMatchObject({ role: 'ONBOARDING_MANAGER', active: false });
    await page.goto('/users');
    await settled(page, 'Benutzer:innen');
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByText('Onboarding-Management').waitFor();
    await row.getByText('Inaktiv').waitFor();
    await row.getByRole('link', { name: `Bearbeiten: ${email}` }).click();
    await page
      .getByRole('heading', { name: `Benutzer:in bearbeiten: ${email}`, level: 1 })
      .waitFor();
    await expect.poll(() => page.getByLabel('Rolle').inputValue()).toBe('ONBOARDING_MANAGER');
    await page.getByLabel('Rolle').selectOption('ADMIN');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByRole('status').getByText('Die Änderungen sind gespeichert.').waitFor();
    await page.waitForURL(/\/users$/);
    await settled(page, 'Benutzer:innen');
    await page
      .getByRole('row')
      .filter({ hasText: email })
      .getByText('Admin', { exact: true })
      .waitFor();

    // SUPERADMIN is above an admin: the server refuses, the page says so in German.
    await page.goto(`/users/${created.id}/edit`);
    await expect.poll(() => page.getByLabel('Rolle').inputValue()).toBe('ADMIN');
    await page.getByLabel('Rolle').selectOption('SUPERADMIN');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByRole('alert').getByText('Diese Rolle dürfen Sie nicht vergeben.').waitFor();
    expect((await api<{ role: string }>(`/user/${created.id}`)).role).toBe('ADMIN');

    // Activate the account after confirming.
    await page.getByRole('button', { name: 'Weiter bearbeiten' }).click();
    await page.getByRole('button', { name: 'Konto aktivieren' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Das Konto von ${email} aktivieren?` });
    await dialog.waitFor();
    expect((await api<{ active: boolean }>(`/user/${created.id}`)).active).toBe(false);
    await dialog.getByRole('button', { name: 'Ja, aktivieren' }).click();
    await page.getByRole('status').getByText('Das Konto ist aktiviert.').waitFor();
    await page.getByText('Das Konto ist aktiv.').waitFor();
    expect((await api<{ active: boolean }>(`/user/${created.id}`)).active).toBe(true);
    expect(b.pageErrors).toEqual([]);
  });
});

describe('a coach', () => {
  it('sees only the menu items of their role and cannot open users, coaches or events', async () => {
    const page = b.page;
    await openAs(page, coachToken, '/appointments');
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await nav.waitFor();
    const links = (await nav.getByRole('link').allTextContents()).map((s) => s.trim());
    expect(links).toEqual(
      expect.arrayContaining(['Kalender', 'Termine', 'Klient:innen', 'Verfügbarkeit']),
    );
    for (const item of [
      'Coaches',
      'Benutzer:innen',
      'Ereignisse',
      'Neue:r Klient:in',
      'Neuer Ad-hoc-Termin',
      'Admin (Dashboard)',
    ]) {
      expect(links).not.toContain(item);
    }
    for (const path of ['/users', '/users/new', '/coaches', '/events']) {
      await page.goto(path);
      await page.getByRole('heading', { name: 'Kein Zugriff', level: 1 }).waitFor();
    }
  });
});

describe('an admin and the coaches', () => {
  it('edits a coach with bad input: German messages at the fields, nothing changed', async () => {
    const page = b.page;
    await openAs(page, adminToken, '/coaches?active=true');
    await page.getByRole('heading', { name: 'Coaches', level: 1 }).waitFor();
    await settled(page, 'Coaches');
    expect(await seriousAxeViolations(page)).toEqual([]);
    const first = page
      .getByRole('region', { name: 'Coaches' })
      .locator('tbody tr')
      .first()
      .getByRole('link');
    const name = (await first.textContent())!.trim();
    await first.click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const coachId = new URL(page.url()).pathname.split('/').pop()!;
    const before = await api<Record<string, unknown>>(`/coach/${coachId}`);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Bearbeiten' }).click();
    await page.getByRole('heading', { name: 'Coach bearbeiten', level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel('Vorname').inputValue()).toBe(before.firstName);
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') puts.push(r.url());
    });
    await page.getByLabel('Vorname').fill('   ');
    await page.getByLabel('E-Mail-Adresse').fill('kein-at');
    await page.getByLabel('Telefon').fill('abc');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page
      .locator('#field-firstName-error')
      .getByText('Bitte füllen Sie dieses Feld aus.')
      .waitFor();
    await page
      .locator('#field-email-error')
      .getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein')
      .waitFor();
    await page.locator('#field-telephone-error').waitFor();
    expect(await page.getByLabel('Vorname').getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('alert').getByText('Bitte prüfen Sie die markierten Felder.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(puts).toEqual([]);
    expect(await api<Record<string, unknown>>(`/coach/${coachId}`)).toEqual(before);
  });

  it('searches coaches; the search stays in the URL', async () => {
    const page = b.page;
    await openAs(page, adminToken, '/coaches');
    await settled(page, 'Coaches');
    const { coaches } = await api<{ coaches: Array<{ lastName: string; active: boolean }> }>(
      '/coach?limit=100',
    );
    const target = coaches.find((c) => c.active)!;
    await page.getByLabel('Suche (Name oder E-Mail)').fill(target.lastName);
    await page.getByRole('button', { name: 'Filter anwenden' }).click();
    await page.waitForURL(new RegExp(`search=${encodeURIComponent(target.lastName)}`));
    await settled(page, 'Coaches');
    const names = await page
      .getByRole('region', { name: 'Coaches' })
      .locator('tbody tr td:first-child')
      .allTextContents();
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n).toContain(target.lastName);
  });
});

describe('an admin and the events', () => {
  it('filters events by client; the actions are German', async () => {
    const page = b.page;
    // A client with events of its own: created and changed.
    const lastName = `Ereignis${Date.now()}`;
    const client = await api<{ id: string }>('/admin/client', {
      method: 'POST',
      body: JSON.stringify({ firstName: 'Erika', lastName, clientType: 'self' }),
    });
    await api(`/admin/client/${client.id}`, {
      method: 'PUT',
      body: JSON.stringify({ notes: 'Rückruf erbeten' }),
    });
    // An appointment of theirs (far ahead, where no other journey books), and a change to an insurer.
    const coaches = await api<{ coaches: Array<{ id: string; active: boolean }> }>(
      '/coach?limit=100',
    );
    const start = new Date(Date.UTC(2030, 0, 7, 8, 5 * Math.floor(Math.random() * 10)));
    const appointment = await api<{ id: string; startDate: string }>('/appointment', {
      method: 'POST',
      body: JSON.stringify({
        clientId: client.id,
        coachId: coaches.coaches.find((c) => c.active)!.id,
        startDate: start.toISOString(),
        endDate: new Date(start.getTime() + 30 * 60_000).toISOString(),
        appointmentType: 'followup',
      }),
    });
    const insurers = await api<{ insurers: Array<{ id: string; ikNumber: string }> }>(
      '/admin/insurers',
    );
    await api(`/admin/insurers/${insurers.insurers[0]!.id}`, {
      method: 'PUT',
      body: JSON.stringify({ ikNumber: insurers.insurers[0]!.ikNumber }),
    });

    await openAs(page, adminToken, '/events?showAllEvents=true');
    await page.getByRole('heading', { name: 'Ereignisse', level: 1 }).waitFor();
    await settled(page, 'Ereignisse');
    expect(await seriousAxeViolations(page)).toEqual([]);
    const region = page.getByRole('region', { name: 'Ereignisse' });
    // every event has a German name (an insurer's change was "Sonstiges Ereignis (insurer.updated)").
    const what = await region.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(what).toEqual(expect.arrayContaining([expect.stringMatching(/^Krankenkasse geändert/)]));
    for (const w of what) expect(w).not.toMatch(/Sonstiges Ereignis|[a-z_]+\.[a-z_]+/);
    const row = region
      .locator('tbody tr')
      .filter({ has: page.locator(`a[href="/clients/${client.id}"]`) })
      .first();
    // "Betrifft" names the person and the appointment, not "Klient:in / Termin".
    expect(await row.locator(`a[href="/clients/${client.id}"]`).textContent()).toBe(
      `Erika ${lastName}`,
    );
    const when = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(appointment.startDate));
    await region
      .locator(`a[href="/appointments/${appointment.id}"]`, {
        hasText: `Termin am ${when} (Folgetermin)`,
      })
      .first()
      .waitFor();
    await row.getByRole('button', { name: 'Nur diese:n Klient:in' }).click();
    await page.waitForURL(new RegExp(`client=${client.id}`));
    await settled(page, 'Ereignisse');

    const rows = region.locator('tbody tr');
    const count = await rows.count();
    const expected = await api<{ itemCount: number }>(
      `/events?client=${client.id}&showAllEvents=true`,
    );
    expect(count).toBe(expected.itemCount);
    expect(count).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < count; i++) {
      await rows.nth(i).locator(`a[href="/clients/${client.id}"]`).waitFor();
    }
    const actions = (await region.locator('tbody tr td:nth-child(2)').allTextContents()).map((a) =>
      a.replace(/ \(wichtig\)$/, ''),
    );
    expect(actions).toEqual(expect.arrayContaining(['Klient:in angelegt', 'Klient:in geändert']));
    for (const a of actions) expect(a).not.toMatch(/[a-z]+\.[a-z_]+/);
    // German date and 24-hour time.
    for (const w of await region.locator('tbody tr td:first-child').allTextContents()) {
      expect(w).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    }

    // The audit trail of the same client.
    await page.getByLabel('Ansicht').selectOption('audit');
    await page.getByRole('button', { name: 'Filter anwenden' }).click();
    await page.waitForURL(/view=audit/);
    await settled(page, 'Ereignisse');
    expect(new URL(page.url()).searchParams.get('client')).toBe(client.id);
    const audit = await region.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(audit).toEqual(expect.arrayContaining(['Klient:in angelegt']));

    // The filter names the client, and another is picked by typing a name, not an id.
    await page.getByText(`Gewählt: Erika ${lastName}`).waitFor();
    await page.getByRole('button', { name: 'Auswahl entfernen' }).click();
    await page.getByRole('button', { name: 'Filter anwenden' }).click();
    await page.waitForURL((u) => !u.searchParams.has('client'));
    await settled(page, 'Ereignisse');
    await page.getByLabel('Klient:in', { exact: true }).fill(lastName);
    await page.getByRole('button', { name: `Erika ${lastName}` }).click();
    await page.getByText(`Gewählt: Erika ${lastName}`).waitFor();
    await page.getByRole('button', { name: 'Filter anwenden' }).click();
    await page.waitForURL((u) => u.searchParams.get('client') === client.id);
    await settled(page, 'Ereignisse');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });
});

describe('an admin and the billing rules', () => {
  it('moves a rule down by keyboard (announced, saved), previews an appointment picked by client name, and creates a rule with German messages', async () => {
    const page = b.page;
    type Rules = { billingRules: Array<{ id: string; name: string }> };
    const before = (await api<Rules>('/admin/billing-rules')).billingRules;
    expect(before.length).toBeGreaterThanOrEqual(2);
    const [first, second] = before as [
      Rules['billingRules'][number],
      Rules['billingRules'][number],
    ];

    await openAs(page, adminToken, '/billing/rules');
    await page.getByRole('heading', { name: 'Abrechnungsregeln', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'Regeln in der Reihenfolge der Prüfung' });
    await list.getByRole('listitem').first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Keyboard only: focus "down" on the first rule and press Enter.
    const down = page.getByRole('button', { name: `„${first.name}“ nach unten verschieben` });
    await down.focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .getByText(`„${first.name}“ steht jetzt an Position 2 von ${before.length}.`)
      .waitFor();
    await expect
      .poll(async () =>
        (await api<Rules>('/admin/billing-rules')).billingRules.slice(0, 2).map((r) => r.id),
      )
      .toEqual([second.id, first.id]);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toMatch(new RegExp(`„${first.name}“ nach (unten|oben) verschieben`));
    expect(await list.getByRole('listitem').nth(1).textContent()).toContain(first.name);

    // Preview by picking: a client by name, then one of their appointments (newest first).
    type Appt = {
      id: string;
      startDate: string;
      client: { id: string; firstName: string; lastName: string };
    };
    const past = (
      await api<{ appointments: Appt[] }>(
        `/appointments?toDate=${encodeURIComponent(new Date().toISOString())}&cancelled=false&noShow=false&sortDirection=desc&limit=50`,
      )
    ).appointments;
    let picked: { client: Appt['client']; list: Appt[]; index: number } | null = null;
    for (const a of past) {
      const full = `${a.client.firstName} ${a.client.lastName}`;
      const found = await api<{ clients: Array<{ firstName: string; lastName: string }> }>(
        `/admin/client/search?query=${encodeURIComponent(a.client.lastName)}&limit=10`,
      );
      if (found.clients.filter((c) => `${c.firstName} ${c.lastName}` === full).length !== 1)
        continue;
      const res = await fetch(
        `${b.baseUrl}/api/admin/billing-rules/preview?appointmentId=${a.id}`,
        {
          headers: { authorization: `Bearer ${adminToken}` },
        },
      );
      if (!res.ok) continue;
      const list = (
        await api<{ appointments: Appt[] }>(
          `/appointments?clientId=${a.client.id}&sortDirection=desc&limit=100`,
        )
      ).appointments;
      picked = { client: a.client, list, index: list.findIndex((x) => x.id === a.id) };
      break;
    }
    expect(picked, 'a past appointment of a client with a name of their own').not.toBeNull();
    const { client, list: theirs, index } = picked!;
    await page.getByLabel('Klient:in', { exact: true }).fill(client.lastName);
    await page
      .getByRole('button', {
        name: new RegExp(`^${client.firstName} ${client.lastName}( \\(\\d{4}\\))?$`),
      })
      .click();
    const choices = page.getByRole('list', {
      name: `Termine von ${client.firstName} ${client.lastName}, neueste zuerst`,
    });
    await choices.getByRole('button').first().waitFor();
    expect(await choices.getByRole('button').count()).toBe(theirs.length);
    const when = (iso: string) => {
      const parts = (o: Intl.DateTimeFormatOptions) =>
        new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', ...o }).format(new Date(iso));
      return `${parts({ day: '2-digit', month: '2-digit', year: 'numeric' })}, ${parts({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })}`;
    };
    const choice = choices.getByRole('button').nth(index);
    expect(await choice.textContent()).toMatch(new RegExp(`^${when(theirs[index]!.startDate)} · `));
    await choice.click();
    const result = page.getByRole('region', { name: 'Ergebnis der Vorschau' });
    // the appointment is named by client, date and type (not its id), and the amount is shown.
    const link = result.getByRole('link', {
      name: new RegExp(
        `^${client.firstName} ${client.lastName}, ${when(theirs[index]!.startDate)} · `,
      ),
    });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/appointments/${theirs[index]!.id}`);
    expect(await result.getByText(theirs[index]!.id).count()).toBe(0);
    await result
      .getByText('Diese Regel rechnet ab')
      .or(result.getByText('Keine aktive Regel passt', { exact: false }))
      .first()
      .waitFor();
    const previewed = await api<{ matchedRuleId: string | null; item: { amountCents: number } }>(
      `/admin/billing-rules/preview?appointmentId=${theirs[index]!.id}`,
    );
    if (previewed.matchedRuleId) {
      const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(
        previewed.item.amountCents / 100,
      );
      await result.getByText(`Abgerechnet würden ${euro}`).waitFor();
    }
    expect(await choice.getAttribute('aria-pressed')).toBe('true');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Create: bad input gets German messages at the fields; then the rule lands at the end.
    await page.getByRole('link', { name: 'Neue Regel' }).click();
    await page.getByRole('heading', { name: 'Neue Abrechnungsregel', level: 1 }).waitFor();
    await page.getByLabel('Preis (brutto, in Euro)').fill('80.00');
    await page.getByLabel('Umsatzsteuer').selectOption('exempt');
    await page.getByRole('button', { name: 'Regel anlegen' }).click();
    await page
      .locator('#field-name-error')
      .getByText('Bitte füllen Sie dieses Feld aus.')
      .waitFor();
    await page.locator('#field-amount-error').getByText('Das Format ist nicht gültig.').waitFor();
    await page
      .locator('#field-vatExemptionReason-error')
      .getByText('Bitte füllen Sie dieses Feld aus.')
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const name = `Konsultation ${Date.now()}`;
    await page.getByLabel('Name der Regel').fill(name);
    await page.getByLabel('Terminart').selectOption('first-arztkonsultation');
    // Insurer and campaign come from the maintained lists (they were free text).
    const insurerSelect = page.getByLabel('Krankenkasse', { exact: true });
    expect(await insurerSelect.evaluate((el) => el.tagName)).toBe('SELECT');
    const kassen = (
      await api<{ insurers: Array<{ name: string; active: boolean }> }>('/admin/insurers')
    ).insurers;
    const offered = await insurerSelect.locator('option').allTextContents();
    expect(offered[0]).toBe('Jede Krankenkasse');
    for (const k of kassen.filter((x) => x.active)) expect(offered).toContain(k.name);
    const kasse = kassen.find((x) => x.active)!.name;
    await insurerSelect.selectOption({ label: kasse });
    const campaignSelect = page.getByLabel('Kampagne', { exact: true });
    expect(await campaignSelect.evaluate((el) => el.tagName)).toBe('SELECT');
    expect(await campaignSelect.locator('option').first().textContent()).toBe('Jede Kampagne');
    await page.getByLabel('Nicht erschienen').selectOption('false');
    await page.getByLabel('Preis (brutto, in Euro)').fill('95,50');
    await page.getByLabel('Text auf der Position und Rechnung').fill('Ärztliche Konsultation');
    await page
      .getByLabel('Grund der Steuerbefreiung')
      .fill('Steuerfreie Heilbehandlung gem. § 4 Nr. 14 a UStG');
    await page.getByRole('button', { name: 'Regel anlegen' }).click();
    await page.waitForURL(/\/billing\/rules$/);
    await list.getByRole('listitem').last().getByText(name).waitFor();
    const created = (
      await api<Rules & { billingRules: Array<Record<string, unknown>> }>('/admin/billing-rules')
    ).billingRules.at(-1)!;
    expect(created).toMatchObject({
      name,
      appointmentType: 'first-arztkonsultation',
      insurer: kasse,
      campaign: null,
      noShow: false,
      amountCents: 9550,
      vatTreatment: 'exempt',
      vatRatePercent: 0,
      payerKind: 'client',
    });
    expect(b.pageErrors).toEqual([]);

    // Leave the demo rules as they were for the other journeys.
    await fetch(`${b.baseUrl}/api/admin/billing-rules/${created.id as string}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    await api('/admin/billing-rules/reorder', {
      method: 'PUT',
      body: JSON.stringify({ ids: before.map((r) => r.id) }),
    });
  });
});

describe('an admin and the maintained lists', () => {
  it('adds an insurer, picks it on a client, finds the client by it, and erases a client', async () => {
    const page = b.page;
    const insurer = `Testkasse ${Date.now()}`;
    await openAs(page, adminToken, '/admin/insurers');
    await page.getByRole('heading', { name: 'Krankenkassen', level: 1 }).waitFor();
    await settled(page, 'Krankenkassen');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // New insurer: a bad IK number gets its German message, then it is created.
    await page.getByRole('link', { name: 'Neue Krankenkasse' }).click();
    await page.getByRole('heading', { name: 'Neue Krankenkasse', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(insurer);
    await page.getByLabel('IK-Nummer (Institutionskennzeichen)').fill('12345');
    await page.getByRole('button', { name: 'Krankenkasse anlegen' }).click();
    await page
      .locator('#field-ikNumber-error')
      .getByText('Die IK-Nummer besteht aus genau neun Ziffern.')
      .waitFor();
    await page.getByLabel('IK-Nummer (Institutionskennzeichen)').fill('109519005');
    await page.getByRole('button', { name: 'Krankenkasse anlegen' }).click();
    await page.getByRole('status').getByText('Krankenkasse angelegt').waitFor();
    await page.waitForURL(/\/admin\/insurers$/);
    await settled(page, 'Krankenkassen');
    // The demo data has 21 insurers: the new one is found by the search.
    await page.getByLabel('Name oder IK-Nummer').fill(insurer);
    await page.getByRole('button', { name: 'Filter anwenden' }).click();
    await page.waitForURL(/search=/);
    await settled(page, 'Krankenkassen');
    await page
      .getByRole('region', { name: 'Krankenkassen' })
      .getByRole('link', { name: insurer })
      .waitFor();

    // Pick it on a client in the client form.
    const lastName = `Kassenwahl${Date.now()}`;
    const client = await api<{ id: string }>('/admin/client', {
      method: 'POST',
      body: JSON.stringify({ firstName: 'Karla', lastName, clientType: 'self' }),
    });
    await page.goto(`/clients/${client.id}/edit`);
    await page.getByRole('heading', { name: 'Klient:in bearbeiten', level: 1 }).waitFor();
    const insurerSelect = page.getByLabel('Krankenkasse', { exact: true });
    await insurerSelect.locator(`option[value="${insurer}"]`).waitFor({ state: 'attached' });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await insurerSelect.selectOption(insurer);
    // The form carries whose client the person was before (existingClientOfCoachId).
    const before = page.getByLabel('Bestandsklient:in von Coach');
    const formerCoach = await before.locator('option').nth(1).getAttribute('value');
    await before.selectOption(formerCoach!);
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.waitForURL(new RegExp(`/clients/${client.id}$`));
    const saved = await api<{ insurer: string; existingClientOfCoachId: string | null }>(
      `/admin/client/${client.id}`,
    );
    expect(saved.insurer).toBe(insurer);
    expect(saved.existingClientOfCoachId).toBe(formerCoach);

    // The clients list's insurer filter offers it and finds the client.
    await page.goto('/clients');
    await settled(page, 'Klient:innen');
    const toggle = page.getByRole('button', { name: 'Filter', exact: true });
    if (await toggle.isVisible()) await toggle.click();
    const filter = page.getByLabel('Krankenkasse', { exact: true });
    await filter.locator(`option[value="${insurer}"]`).waitFor({ state: 'attached' });
    await filter.selectOption(insurer);
    await page.getByRole('button', { name: 'Filter anwenden' }).click();
    await page.waitForURL(/insurer=/);
    await settled(page, 'Klient:innen');
    const rows = page.getByRole('region', { name: 'Klient:innen' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByText(lastName).waitFor();

    // Erase the client: the question says what goes and what is kept; then the list.
    await page.goto(`/clients/${client.id}`);
    await page.getByRole('button', { name: 'Klient:in löschen' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Karla ${lastName} endgültig löschen?` });
    await dialog.waitFor();
    await dialog.getByText('Gelöscht werden: die Stammdaten').waitFor();
    await dialog.getByText('klinischen Dokumente').waitFor();
    await dialog.getByText('steuerrechtlichen Fristen').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Endgültig löschen' }).click();
    await page.getByRole('status').getByText('Klient:in gelöscht').waitFor();
    await page.waitForURL(/\/clients$/);
    const gone = await fetch(`${b.baseUrl}/api/admin/client/${client.id}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(gone.status).toBe(404);
    expect(b.pageErrors).toEqual([]);
  });
});
