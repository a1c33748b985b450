import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { openSignedIn, signInByPasscode } from '../support/e2e-sign-in';

const b = useBrowser();

const ACCOUNTS = {
  SUPERADMIN: 'superadmin@sprechstunde.demo',
  ADMIN: 'admin@sprechstunde.demo',
  ONBOARDING_MANAGER: 'onboarding@sprechstunde.demo',
  COACH: 'coach2@sprechstunde.demo',
  CLIENT: 'klient@sprechstunde.demo',
} as const;
type Account = keyof typeof ACCOUNTS;

const tokens = {} as Record<Account, string>;
beforeAll(async () => {
  for (const [role, email] of Object.entries(ACCOUNTS)) {
    tokens[role as Account] = await signInByPasscode(b.baseUrl, email);
  }
});

const openAs = (account: Account, path: string) =>
  openSignedIn(b.page, b.baseUrl, tokens[account], path);

const nav = () => b.page.getByRole('navigation', { name: 'Hauptnavigation' });
const menuLinks = async () =>
  (await nav().getByRole('link').allTextContents()).map((s) => s.trim());

describe("menu per role, as the specification's roles and permissions says", () => {
  it('SUPERADMIN sees the admin dashboard with key figures', async () => {
    await openAs('SUPERADMIN', '/');
    await nav().waitFor();
    const links = await menuLinks();
    expect(links).toEqual(
      expect.arrayContaining(['Admin (Dashboard)', 'Hilfe', 'Support', 'Profil']),
    );

    await nav().getByRole('link', { name: 'Admin (Dashboard)' }).click();
    await b.page.getByRole('heading', { name: 'Admin (Dashboard)', level: 1 }).waitFor();
    const cards = b.page.getByRole('list', { name: 'Auf einen Blick' });
    await cards.waitFor();
    const labels = await cards.locator('.overview-card-label').allTextContents();
    expect(labels).toEqual([
      'Termine heute',
      'Termine diese Woche',
      'Klient:innen mit offenen Sitzungen',
      'Abrechnungspositionen zur Freigabe',
      'Abrechnungspositionen mit Prüffehlern',
      'Nicht zugestellte Nachrichten',
      'Benutzer:innen',
      'Coaches',
    ]);
    const counts = await cards.locator('.overview-card-count').allTextContents();
    // Demo data: 5 coaches; journeys that ran before on the shared server may have added some.
    expect(Number(counts[7])).toBeGreaterThanOrEqual(5);
    for (const c of counts) expect(c).toMatch(/^(mehr als )?[\d.]+$/);
    // Each card links where the admin acts on it; the week's card to the list of that week.
    await cards.getByRole('link', { name: /^Termine diese Woche/ }).click();
    await b.page.waitForURL(/\/appointments\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);
    await b.page.getByRole('heading', { name: 'Termine', level: 1 }).waitFor();
    await b.page.goBack();
    await cards.waitFor();
    expect(await seriousAxeViolations(b.page)).toEqual([]);
    // Undelivered messages: the card leads to their list.
    await cards.getByRole('link', { name: /^Nicht zugestellte Nachrichten/ }).click();
    await b.page.waitForURL(/\/messages\/failed$/);
    await b.page
      .getByRole('heading', { name: 'Nicht zugestellte Nachrichten', level: 1 })
      .waitFor();
    await b.page.getByRole('region', { name: 'Nicht zugestellte Nachrichten' }).waitFor();
    expect(await seriousAxeViolations(b.page)).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });

  it.each(['ADMIN', 'ONBOARDING_MANAGER', 'COACH'] as const)(
    '%s sees help, support and profile but not the dashboard, which it may not open',
    async (account) => {
      await openAs(account, '/');
      await nav().waitFor();
      const links = await menuLinks();
      expect(links).toEqual(expect.arrayContaining(['Hilfe', 'Support', 'Profil']));
      expect(links).not.toContain('Admin (Dashboard)');
      if (account === 'COACH') {
        for (const item of [
          'Neue:r Klient:in',
          'Coaches',
          'Benutzer:innen',
          'Ereignisse',
          'Abrechnungsregeln',
        ]) {
          expect(links).not.toContain(item);
        }
      }
      await b.page.goto('/dashboard');
      await b.page.getByRole('heading', { name: 'Kein Zugriff' }).waitFor();
    },
  );

  it('every item the ADMIN sees leads to a page of the app', async () => {
    await openAs('ADMIN', '/');
    await nav().waitFor();
    const hrefs = await nav()
      .getByRole('link')
      .evaluateAll((as) =>
        as.filter((a) => !(a as HTMLAnchorElement).target).map((a) => a.getAttribute('href')!),
      );
    expect(hrefs.length).toBeGreaterThanOrEqual(3);
    for (const href of hrefs) {
      await b.page.goto(href);
      await b.page.locator('main h1, main [role="heading"]').first().waitFor();
      expect(
        await b.page.getByRole('heading', { name: 'Seite nicht gefunden' }).count(),
        href,
      ).toBe(0);
    }
  });

  it('a client gets no staff menu', async () => {
    await openAs('CLIENT', '/');
    await b.page.getByRole('button', { name: 'Abmelden' }).waitFor();
    expect(await nav().count()).toBe(0);
  });
});

describe('drawer at 375 px', () => {
  it('is closed, opens from the header, and closes after choosing an item', async () => {
    await b.page.setViewportSize({ width: 375, height: 740 });
    await openAs('COACH', '/');
    const toggle = b.page.getByRole('button', { name: 'Menü öffnen' });
    await toggle.waitFor();
    expect(await nav().count()).toBe(0);
    await toggle.click();
    await nav().waitFor();
    const box = await nav().boundingBox();
    expect(box!.width).toBeLessThanOrEqual(375);
    expect(await seriousAxeViolations(b.page)).toEqual([]);
    await nav().getByRole('link', { name: 'Hilfe' }).click();
    await b.page.getByRole('heading', { name: 'Hilfe', level: 1 }).waitFor();
    expect(await nav().count()).toBe(0);
    expect(new URL(b.page.url()).pathname).toBe('/help');
  });

  it('the sidebar is open by default above 1350 px and collapsed at 1024 px', async () => {
    await b.page.setViewportSize({ width: 1400, height: 900 });
    await openAs('COACH', '/');
    await nav().waitFor();
    await b.page.setViewportSize({ width: 1024, height: 900 });
    await b.page.getByRole('button', { name: 'Menü öffnen' }).waitFor();
    expect(await nav().count()).toBe(0);
  });
});

describe('the sidebar at 1440 px', () => {
  it('runs the full height of a long page and its menu stays in view while the page scrolls', async () => {
    await b.page.setViewportSize({ width: 1440, height: 700 });
    await openAs('ADMIN', '/billing');
    await nav().waitFor();
    await b.page.locator('main table tbody tr').first().waitFor();
    const page = await b.page.evaluate(() => document.scrollingElement!.scrollHeight);
    expect(page).toBeGreaterThan(2 * 700);
    await b.page.evaluate(() => window.scrollTo(0, document.scrollingElement!.scrollHeight));
    // No grey column below the menu: the sidebar's box reaches the footer's bottom.
    const [sidebar, footer] = await Promise.all([
      nav().boundingBox(),
      b.page.getByRole('contentinfo').boundingBox(),
    ]);
    expect(sidebar!.y + sidebar!.height).toBeGreaterThanOrEqual(footer!.y + footer!.height - 1);
    // The menu is in view at the page's end: its first item at the window's top, and the last
    // one reachable by scrolling the menu itself, which fits the window.
    const first = await nav().getByRole('link').first().boundingBox();
    expect(first!.y).toBeGreaterThanOrEqual(0);
    expect(first!.y).toBeLessThan(100);
    const menu = await nav().locator('.menu-sections').boundingBox();
    expect(menu!.height).toBeLessThanOrEqual(700);
    const last = nav().getByRole('link').last();
    await last.scrollIntoViewIfNeeded();
    const lastBox = await last.boundingBox();
    expect(lastBox!.y + lastBox!.height).toBeLessThanOrEqual(700);
    expect(await b.page.evaluate(() => window.scrollY)).toBeGreaterThan(700);
    expect(await seriousAxeViolations(b.page)).toEqual([]);
  });
});

describe('help and support', () => {
  it('/help shows the four topics with German titles (guides only: no video host is configured here)', async () => {
    await openAs('COACH', '/help');
    await b.page.getByRole('heading', { name: 'Hilfe', level: 1 }).waitFor();
    expect(await b.page.locator('main video').count()).toBe(0);
    expect(await b.page.locator('main ol.help-guide').count()).toBe(4);
    expect(await b.page.locator('main h2').allTextContents()).toEqual([
      'Anmelden und Konto aktivieren',
      'Termine und Kalender verwalten',
      'Klient:innen anlegen und betreuen',
      'Videotermine durchführen',
    ]);
    expect(await seriousAxeViolations(b.page)).toEqual([]);
  });

  it('the support form sends a request, and it arrives at the team and the sender', async () => {
    await openAs('COACH', '/support');
    await b.page.getByRole('heading', { name: 'Support', level: 1 }).waitFor();
    await b.page.getByRole('button', { name: 'Anfrage senden' }).click();
    expect(await b.page.getByText('Bitte füllen Sie dieses Feld aus.').count()).toBe(3);
    expect(await seriousAxeViolations(b.page)).toEqual([]);

    const subject = `Frage ${Date.now().toString(36)}`;
    await b.page.getByLabel('Thema', { exact: true }).selectOption('scheduling');
    await b.page.getByLabel('Betreff', { exact: true }).fill(subject);
    await b.page
      .getByLabel('Nachricht', { exact: true })
      .fill('Wie verschiebe ich einen Folgetermin?');
    await b.page.getByRole('button', { name: 'Anfrage senden' }).click();
    await b.page.getByText('Vielen Dank, Ihre Supportanfrage ist eingegangen.').waitFor();
    await b.page.getByText('Ihre Supportanfrage wurde gesendet.').waitFor();

    const mailbox = await (await fetch(`${b.baseUrl}/dev/mailbox`)).text();
    expect(mailbox).toContain(`Supportanfrage: ${subject}`);
    expect(mailbox).toContain(`Ihre Supportanfrage ist eingegangen: ${subject}`);
    expect(mailbox).toContain(`An: ${ACCOUNTS.COACH}`);
    expect(mailbox).toContain('Wie verschiebe ich einen Folgetermin?');
    expect(b.pageErrors).toEqual([]);
  });
});
