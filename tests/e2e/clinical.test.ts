import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { openSignedIn, signInByPasscode } from '../support/e2e-sign-in';

/**
 * In Chromium as the demo coach: open a past appointment, write its summary (the
 * autosave says "Gespeichert"), reload — the text is still there — sign it after the question,
 * and see it locked with the verified signature.
 */
const b = useBrowser();

const COACH = 'coach2@sprechstunde.demo';

describe('a coach documents a past appointment', () => {
  it('writes a summary, keeps it over a reload, signs it and sees it locked', async () => {
    const token = await signInByPasscode(b.baseUrl, COACH);
    const res = await fetch(`${b.baseUrl}/api/summaries/incomplete?limit=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const open = (await res.json()) as {
      summaries: Array<{
        appointmentId: string;
        summaryId: string | null;
        appointmentStartDate: string;
        client: { id: string; firstName: string; lastName: string };
      }>;
    };
    const item = open.summaries.find((i) => i.summaryId === null);
    expect(item, 'a held appointment of the demo coach without a summary').toBeDefined();
    const appointmentId = item!.appointmentId;

    const page = b.page;
    await openSignedIn(page, b.baseUrl, token, `/appointments/${appointmentId}`);
    const section = page.getByRole('region', { name: 'Terminzusammenfassung' });
    await section.getByText('Noch keine Zusammenfassung.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await section.getByRole('link', { name: 'Zusammenfassung schreiben' }).click();
    await page.waitForURL(`**/appointments/${appointmentId}/summary`);

    // whose document it is, with links back; the breadcrumb names the client.
    const clientName = `${item!.client.firstName} ${item!.client.lastName}`;
    await page.getByRole('link', { name: clientName, exact: true }).first().waitFor();
    expect(
      await page
        .locator('.clinical-subject')
        .getByRole('link', { name: clientName })
        .getAttribute('href'),
    ).toBe(`/clients/${item!.client.id}`);
    const when = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }).format(new Date(item!.appointmentStartDate));
    const appointmentLink = page
      .locator('.clinical-subject')
      .getByRole('link', { name: new RegExp(when.replace(/\./g, '\\.')) });
    expect(await appointmentLink.getAttribute('href')).toBe(`/appointments/${appointmentId}`);
    expect(await page.locator('.clinical-subject').textContent()).toMatch(
      /Erstgespräch|Ersttermin|Folgetermin|Konsultation|Ad-hoc/,
    );
    const crumbs = page.getByRole('navigation', { name: 'Brotkrümelnavigation' });
    await crumbs.getByRole('link', { name: `${clientName}, ${when}` }).waitFor();
    // Looking creates nothing: no 404 read, no draft stored, no console error.
    await page.getByText('Noch nicht angelegt – wird mit der ersten Eingabe gespeichert').waitFor();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const stillOpen = (await (
      await fetch(`${b.baseUrl}/api/summaries/incomplete?limit=100`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as typeof open;
    expect(
      stillOpen.summaries.find((i) => i.appointmentId === appointmentId)?.summaryId,
    ).toBeNull();
    expect(b.consoleErrors).toEqual([]);

    const saved = page.getByRole('status').filter({ hasText: /^Gespeichert$/ });
    await page
      .getByLabel('Subjektiv (Bericht der Klientin / des Klienten)')
      .fill('Schläft seit Wochen schlecht');
    await page.getByLabel('Objektiv (Beobachtungen, Werte)').fill('PSS 24');
    await page.getByLabel('Einschätzung').fill('Stress hoch, Ressourcen vorhanden');
    await page.getByLabel('Plan', { exact: true }).fill('Atemübung täglich');
    await page.getByLabel('Nächste Schritte').fill('Termin in zwei Wochen');
    await saved.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Typed and reloaded while the autosave is in flight: the text comes back from the tab's
    // copy, and the save that lands late (same text, newer ETag) still ends "Gespeichert".
    await page.getByLabel('Hausaufgaben').fill('Schlafprotokoll führen');
    await expect.poll(() => saved.count()).toBe(0);
    await page
      .getByRole('status')
      .filter({ hasText: /^Speichert/ })
      .or(saved)
      .first()
      .waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await expect
      .poll(() => page.getByLabel('Hausaufgaben').inputValue())
      .toBe('Schlafprotokoll führen');
    expect(
      await page.getByLabel('Subjektiv (Bericht der Klientin / des Klienten)').inputValue(),
    ).toBe('Schläft seit Wochen schlecht');
    await saved.waitFor();

    // typed and "Unterschreiben" clicked at once, while the autosave has not landed:
    // the click is kept and the question follows the save.
    await page.getByLabel('Nächste Schritte').fill('Termin in zwei Wochen, Protokoll mitbringen');
    await page.getByRole('button', { name: 'Unterschreiben', exact: true }).click();
    const question = page.getByRole('alertdialog', { name: 'Dokument jetzt unterschreiben?' });
    await question.waitFor();
    await question.getByRole('button', { name: 'Ja, unterschreiben' }).click();
    await page.getByText('✓ Inhalt unverändert (Prüfsumme bestätigt)').waitFor();
    await page.getByText('Unterschrieben – nur noch Nachträge möglich').waitFor();
    expect(await page.getByLabel('Hausaufgaben').getAttribute('readonly')).not.toBeNull();
    await page.getByRole('button', { name: 'Nachtrag hinzufügen' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    const signed = await fetch(`${b.baseUrl}/api/appointment/${appointmentId}/summary`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await signed.json()) as { status: string; content: { homework?: string } };
    expect(body.status).toBe('sent');
    expect(body.content.homework).toBe('Schlafprotokoll führen');
    expect(b.consoleErrors).toEqual([]);
  });
});
