import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { e2eApi } from '../support/e2e-api';
import { openSignedIn, signInByPasscode } from '../support/e2e-sign-in';

/**
 * /billing in Chromium as the demo admin: filter to one coach's open items, select
 * two, approve them after a confirmation that states count and sum; then the conflict case —
 * one of the next selection is approved meanwhile through the API, the page names it, and
 * "deselect and retry" approves the rest.
 */
const b = useBrowser();

const ADMIN = 'admin@sprechstunde.demo';
let token: string;

interface Item {
  id: string;
  coachId: string;
  status: string;
}

const api = e2eApi(b, () => token);
const pendingOf = async (coachId: string): Promise<Item[]> =>
  (await api('GET', `/billable-items?status=pending&coachId=${coachId}&limit=25`)).billableItems;

beforeAll(async () => {
  token = await signInByPasscode(b.baseUrl, ADMIN);
});

const results = (page: Page) => page.getByRole('region', { name: 'Abrechnungspositionen' });
const settled = (page: Page) => results(page).and(page.locator('[aria-busy="false"]')).waitFor();
const rowBoxes = (page: Page) =>
  results(page).getByRole('checkbox', { name: /^Position .* auswählen$/ });
const bar = (page: Page) => page.getByRole('region', { name: 'Aktionen für die Auswahl' });

describe('an admin on /billing', () => {
  it('filters, approves a batch, and after a conflict deselects the changed item and approves the rest', async () => {
    // The coach with the most open items in the demo data.
    const all: Item[] = (await api('GET', '/billable-items?status=pending&limit=100'))
      .billableItems;
    const byCoach = new Map<string, number>();
    for (const item of all) byCoach.set(item.coachId, (byCoach.get(item.coachId) ?? 0) + 1);
    const [coachId] = [...byCoach].sort((x, y) => y[1] - x[1])[0]!;
    const open: number = (await api('GET', `/billable-items?status=pending&coachId=${coachId}`))
      .itemCount;
    expect(open).toBeGreaterThanOrEqual(4);

    const page = b.page;
    await openSignedIn(page, b.baseUrl, token, '/billing');
    await page.getByRole('heading', { name: 'Abrechnung', level: 1 }).waitFor();
    await settled(page);
    await page
      .getByRole('navigation', { name: 'Status' })
      .getByRole('button', { name: /^Offen/ })
      .click();
    await page.locator(`#filter-coach option[value="${coachId}"]`).waitFor({ state: 'attached' });
    await page.getByLabel('Coach', { exact: true }).selectOption(coachId);
    await page.getByRole('button', { name: 'Filter anwenden' }).click();
    await page.waitForURL(
      (url) =>
        url.searchParams.get('coach') === coachId && url.searchParams.get('status') === 'pending',
    );
    await settled(page);
    expect(await rowBoxes(page).count()).toBe(Math.min(open, 25));

    // Two items, approved after the question with count and sum.
    const first = (await pendingOf(coachId)).slice(0, 2);
    await rowBoxes(page).nth(0).check();
    await rowBoxes(page).nth(1).check();
    await bar(page)
      .getByText(/^2 Positionen ausgewählt, Summe [\d.,]+\s€/)
      .waitFor();
    await bar(page).getByRole('button', { name: 'Freigeben' }).click();
    const dialog = page.getByRole('dialog', { name: 'Aktion bestätigen' });
    await dialog.getByText(/^Freigeben: 2 Positionen mit zusammen [\d.,]+\s€\?$/).waitFor();
    await dialog.getByRole('button', { name: 'Freigeben' }).click();
    await page.getByText('2 Positionen freigegeben').waitFor();
    const approved = await api(
      'GET',
      `/billable-items?status=approved&coachId=${coachId}&limit=100`,
    );
    const approvedIds = approved.billableItems.map((i: Item) => i.id);
    for (const item of first) expect(approvedIds).toContain(item.id);
    await settled(page);
    expect(await rowBoxes(page).count()).toBe(Math.min(open - 2, 25));

    // The next two are selected; one of them is approved meanwhile by someone else.
    const [changed, rest] = (await pendingOf(coachId)).slice(0, 2);
    await rowBoxes(page).nth(0).check();
    await rowBoxes(page).nth(1).check();
    await api('PUT', '/billable-items/batch-approve', { ids: [changed!.id] });
    await bar(page).getByRole('button', { name: 'Freigeben' }).click();
    await dialog.getByRole('button', { name: 'Freigeben' }).click();
    const conflict = page.getByRole('dialog', { name: 'Nichts wurde geändert' });
    await conflict
      .getByText('1 Position lässt diese Aktion nicht mehr zu', { exact: false })
      .waitFor();
    await conflict
      .getByText('jetzt: Freigegeben, der Status erlaubt diese Aktion nicht', { exact: false })
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await conflict
      .getByRole('button', { name: 'Abwählen und die übrige Position erneut senden' })
      .click();
    await page.getByText('1 Position freigegeben').waitFor();
    const after = (await api('GET', `/billable-items?status=approved&coachId=${coachId}&limit=100`))
      .billableItems;
    expect(after.map((i: Item) => i.id)).toContain(rest!.id);
    await settled(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

describe('billing on a phone and a desk', () => {
  it('Positionen and Rechnungen are tabs, the current one marked; on a phone each item is a card with label and value per line', async () => {
    const page = b.page;
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page, b.baseUrl, token, '/billing');
    await settled(page);
    const tabs = page.getByRole('navigation', { name: 'Abrechnung' });
    const items = tabs.getByRole('link', { name: 'Positionen' });
    const invoices = tabs.getByRole('link', { name: 'Rechnungen' });
    expect(await items.getAttribute('aria-current')).toBe('page');
    expect(await invoices.getAttribute('aria-current')).toBeNull();
    // Two tabs side by side with room between their words (not "PositionenRechnungen"), each a
    // target of a finger's height, the current one underlined in another colour than the other.
    const [a, c] = [(await items.boundingBox())!, (await invoices.boundingBox())!];
    expect(Math.abs(a.y - c.y)).toBeLessThan(2);
    expect(a.height).toBeGreaterThanOrEqual(40);
    const textGap = await tabs.evaluate((nav) => {
      const [x, y] = [...nav.querySelectorAll('a')].map((link) => {
        const range = document.createRange();
        range.selectNodeContents(link);
        return range.getBoundingClientRect();
      });
      return y!.left - x!.right;
    });
    expect(textGap).toBeGreaterThanOrEqual(16);
    const underline = (link: typeof items) =>
      link.evaluate((el) => {
        const style = getComputedStyle(el);
        return {
          width: parseFloat(style.borderBottomWidth),
          color: style.borderBottomColor,
          text: style.textDecorationLine,
        };
      });
    const [current, other] = [await underline(items), await underline(invoices)];
    expect(current.width).toBeGreaterThanOrEqual(2);
    expect(current.color).not.toBe(other.color);
    expect(other.text).toBe('none');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await invoices.click();
    await page.waitForURL((url) => url.pathname === '/billing/invoices');
    expect(
      await page
        .getByRole('navigation', { name: 'Abrechnung' })
        .getByRole('link', { name: 'Rechnungen' })
        .getAttribute('aria-current'),
    ).toBe('page');

    // A phone: the first item is a card headed by the client's name, its fields as label and
    // value side by side, within the screen.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/billing');
    await settled(page);
    const row = results(page).locator('tbody tr').first();
    const card = (await row.boundingBox())!;
    expect(card.x).toBeGreaterThanOrEqual(0);
    expect(card.x + card.width).toBeLessThanOrEqual(375);
    const layout = await row.evaluate((tr) => {
      const cells = [...tr.children] as HTMLElement[];
      const head = cells.find((cell) => cell.classList.contains('cell-primary'))!;
      const amount = cells.find((cell) => cell.dataset.label === 'Betrag')!;
      const label = getComputedStyle(amount, '::before');
      const value = amount.querySelector('.cell-value')!.getBoundingClientRect();
      return {
        headOnTop:
          Math.min(
            ...cells
              .filter((cell) => cell !== head && !cell.classList.contains('cell-select'))
              .map((cell) => cell.getBoundingClientRect().top),
          ) >=
          head.getBoundingClientRect().bottom - 1,
        label: label.content,
        valueBesideLabel:
          value.left > amount.getBoundingClientRect().left + 80 &&
          value.top < amount.getBoundingClientRect().top + 10,
      };
    });
    expect(layout).toEqual({ headOnTop: true, label: '"Betrag" / ""', valueBesideLabel: true });
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
