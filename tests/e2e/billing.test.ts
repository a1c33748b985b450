import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { e2eApi } from '../support/e2e-api';
import { openSignedIn, signInByPasscode } from '../support/e2e-sign-in';

/**
 * Issue 19, /billing in Chromium as the demo admin: filter to one coach's open items, select
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
const rowBoxes = (page: Page) => results(page).getByRole('checkbox', { name: /^Position .* auswählen$/ });
const bar = (page: Page) => page.getByRole('region', { name: 'Aktionen für die Auswahl' });

describe('an admin on /billing', () => {
  it('filters, approves a batch, and after a conflict deselects the changed item and approves the rest', async () => {
    // The coach with the most open items in the demo data.
    const all: Item[] = (await api('GET', '/billable-items?status=pending&limit=100')).billableItems;
    const byCoach = new Map<string, number>();
    for (const item of all) byCoach.set(item.coachId, (byCoach.get(item.coachId) ?? 0) + 1);
    const [coachId] = [...byCoach].sort((x, y) => y[1] - x[1])[0]!;
    const open: number = (await api('GET', `/billable-items?status=pending&coachId=${coachId}`)).itemCount;
    expect(open).toBeGreaterThanOrEqual(4);

    const page = b.page;
    await openSignedIn(page, b.baseUrl, token, '/billing');
    await page.getByRole('heading', { name: 'Abrechnung', level: 1 }).waitFor();
    await settled(page);
    await page.getByRole('navigation', { name: 'Status' }).getByRole('button', { name: /^Offen/ }).click();
    await page.locator(`#filter-coach option[value="${coachId}"]`).waitFor({ state: 'attached' });
    await page.getByLabel('Coach', { exact: true }).selectOption(coachId);
    await page.getByRole('button', { name: 'Filter anwenden' }).click();
    await page.waitForURL((url) => url.searchParams.get('coach') === coachId && url.searchParams.get('status') === 'pending');
    await settled(page);
    expect(await rowBoxes(page).count()).toBe(Math.min(open, 25));

    // Two items, approved after the question with count and sum.
    const first = (await pendingOf(coachId)).slice(0, 2);
    await rowBoxes(page).nth(0).check();
    await rowBoxes(page).nth(1).check();
    await bar(page).getByText(/^2 Positionen ausgewählt, Summe [\d.,]+\s€/).waitFor();
    await bar(page).getByRole('button', { name: 'Freigeben' }).click();
    const dialog = page.getByRole('dialog', { name: 'Aktion bestätigen' });
    await dialog.getByText(/^Freigeben: 2 Positionen mit zusammen [\d.,]+\s€\?$/).waitFor();
    await dialog.getByRole('button', { name: 'Freigeben' }).click();
    await page.getByText('2 Positionen freigegeben').waitFor();
    const approved = await api('GET', `/billable-items?status=approved&coachId=${coachId}&limit=100`);
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
    await conflict.getByText('1 Position lässt diese Aktion nicht mehr zu', { exact: false }).waitFor();
    await conflict.getByText('jetzt: Freigegeben, der Status erlaubt diese Aktion nicht', { exact: false }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await conflict.getByRole('button', { name: 'Abwählen und die übrige Position erneut senden' }).click();
    await page.getByText('1 Position freigegeben').waitFor();
    const after = (await api('GET', `/billable-items?status=approved&coachId=${coachId}&limit=100`)).billableItems;
    expect(after.map((i: Item) => i.id)).toContain(rest!.id);
    await settled(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
