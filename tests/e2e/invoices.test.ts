import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { downloadedBytes, useBrowser } from '../support/browser';
import { e2eApi } from '../support/e2e-api';
import { openSignedIn, signInByPasscode } from '../support/e2e-sign-in';

/**
 * The invoice screens in Chromium as the demo admin: from /billing to "Rechnungen",
 * an invoice run over the approved items (count and payers first, then the result with links),
 * one invoice opened, its PDF downloaded (a PDF), sent by e-mail after the question naming the
 * address, "versendet" on the page and the mail in the development mailbox.
 */
const b = useBrowser();

const ADMIN = 'admin@sprechstunde.demo';
let token: string;

const api = e2eApi(b, () => token);

async function mailTo(to: string, subject: string): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const html = await (await fetch(`${b.baseUrl}/dev/mailbox`)).text();
    if (html.split('<article>').some((a) => a.includes(`An: ${to}`) && a.includes(subject)))
      return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

beforeAll(async () => {
  token = await signInByPasscode(b.baseUrl, ADMIN);
});

describe('an admin on /billing/invoices', () => {
  it('runs invoices from approved items, opens one, downloads its PDF and sends it', async () => {
    // A few open items approved first, so the run has something for certain.
    const pending = (await api('GET', '/billable-items?status=pending&limit=3')).billableItems;
    expect(pending.length).toBeGreaterThan(0);
    await api('PUT', '/billable-items/batch-approve', {
      ids: pending.map((i: { id: string }) => i.id),
    });
    const due = await api('GET', '/invoices/runs/preview');
    expect(due.itemCount).toBeGreaterThanOrEqual(pending.length);
    // the demo's insurers and sponsors have invoice addresses and the demo practice
    // its VAT id, so nothing holds the run back and business payers get their XRechnung.
    expect(due.payersWithoutAddress).toEqual([]);
    expect(due.sellerIdentifierMissing).toBe(false);

    const page = b.page;
    await openSignedIn(page, b.baseUrl, token, '/billing');
    await page
      .getByRole('navigation', { name: 'Abrechnung' })
      .getByRole('link', { name: 'Rechnungen' })
      .click();
    await page.waitForURL((url) => url.pathname === '/billing/invoices');
    await page.getByRole('heading', { name: 'Rechnungen', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Rechnungslauf starten' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rechnungslauf' });
    const question = new RegExp(
      `^${due.itemCount} freigegebenen? Positionen? für ${due.payerCount} Zahler, zusammen [\\d.,]+\\s€\\.$`,
    );
    await dialog.getByText(question).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Rechnungen erstellen' }).click();
    const done =
      due.payerCount === 1 ? '1 Rechnung erstellt' : `${due.payerCount} Rechnungen erstellt`;
    await page.getByText(done, { exact: true }).waitFor();
    const issued = page.getByRole('list', { name: 'Erstellte Rechnungen' }).getByRole('link');
    expect(await issued.count()).toBe(due.payerCount);
    const number = (await issued.first().textContent())!.trim();
    expect(number).toMatch(/^\d{4}-\d{5}$/);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The invoice's page: lines, sums, the PDF.
    await issued.first().click();
    await page
      .getByRole('heading', { name: new RegExp(`^Rechnung ${number}$`), level: 1 })
      .waitFor();
    await page.getByRole('heading', { name: 'Summen je Steuersatz' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'PDF herunterladen' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Rechnung_${number}.pdf`);
    const pdf = await downloadedBytes(download);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Sent by e-mail after the question naming the address.
    const to = `rechnung-${Date.now().toString(36)}@example.org`;
    await page.getByRole('button', { name: 'Per E-Mail senden' }).click();
    const send = page.getByRole('dialog', { name: 'Rechnung per E-Mail senden' });
    await send.getByLabel('E-Mail-Adresse des Empfängers').fill(to);
    await send.getByText(`Rechnung ${number} an ${to} senden?`).waitFor();
    // What this recipient gets, not a promise of an XRechnung to everyone.
    const issuedInvoice = await api('GET', `/invoices/${page.url().split('/').pop()}`);
    const gets =
      issuedInvoice.payerKind === 'client'
        ? 'Die Klientin bzw. der Klient erhält die Rechnung als PDF im Anhang.'
        : `${issuedInvoice.recipient.name} erhält die Rechnung als PDF und als XRechnung (XML) im Anhang.`;
    await send.getByText(gets).waitFor();
    expect(await send.innerText()).not.toContain('an Sponsoren und Kassen auch als XRechnung');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await send.getByRole('button', { name: 'Senden' }).click();
    await page.getByText(`Rechnung ${number} an ${to} gesendet.`).waitFor();
    await page.getByText(new RegExp(`^Versendet am .* an ${to.replace(/\./g, '\\.')}$`)).waitFor();
    await page.locator('.invoice-facts').getByText('versendet', { exact: true }).waitFor();
    expect(await mailTo(to, `Rechnung ${number}`)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
