import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { openSignedIn, registerByPasscode, signInByPasscode } from '../support/e2e-sign-in';

/**
 * /review in Chromium as the demo admin: three summaries are written and signed
 * through the API for held appointments of the demo data; the admin completes one in a batch
 * (confirmation with the count, "1 Zusammenfassung abgeschlossen", it leaves the list); then
 * the conflict — one of the next two is completed meanwhile through the API, the page names
 * it, and "deselect and complete the rest" completes the other. A patient card goes the whole
 * way: the demo coach writes and signs it, the admin sees the cards' overall status and completes
 * it, sends the client a sign-in link, and the client reads the signed card (no review comments).
 */
const b = useBrowser();

const ADMIN = 'admin@sprechstunde.demo';
let token: string;

const SOAP = {
  format: 'SOAP',
  riskFlag: false,
  sections: {
    subjective: 'Schläft schlecht',
    objective: 'PSS 24',
    assessment: 'Stress hoch',
    plan: 'Atemübung',
  },
  nextSteps: 'Termin in 2 Wochen',
};

const api = async (method: string, path: string, body?: unknown, status = 200) => {
  const res = await fetch(`${b.baseUrl}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body
        ? { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }
        : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status, `${method} ${path}`).toBe(status);
  return res.json() as Promise<any>;
};

interface Signed {
  id: string;
  appointmentId: string;
  clientId: string;
  label: string;
}

/** Writes and signs summaries for held appointments whose clients differ (row labels are unique). */
async function signSummaries(count: number): Promise<Signed[]> {
  const open = (await api('GET', '/summaries/incomplete?limit=100')).summaries as any[];
  const seen = new Set<string>();
  const picked = open.filter((s) => {
    const key = `${s.client.firstName} ${s.client.lastName}`;
    if (s.status !== 'missing' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  expect(picked.length).toBeGreaterThanOrEqual(count);
  const signed: Signed[] = [];
  for (const s of picked.slice(0, count)) {
    const url = `/appointment/${s.appointmentId}/summary`;
    await api('POST', url, { content: SOAP }, 201);
    const doc = await api('PUT', url, { status: 'sent' });
    const date = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }).format(new Date(s.appointmentStartDate));
    signed.push({
      id: doc.id,
      appointmentId: s.appointmentId,
      clientId: s.client.id,
      label: `Dokument ${s.client.firstName} ${s.client.lastName}, ${date} auswählen`,
    });
  }
  return signed;
}

beforeAll(async () => {
  token = await signInByPasscode(b.baseUrl, ADMIN);
});

const results = (page: Page) =>
  page.getByRole('region', { name: 'Unterschriebene Zusammenfassungen, die auf Prüfung warten' });
const settled = (page: Page) => results(page).and(page.locator('[aria-busy="false"]')).waitFor();
const bar = (page: Page) => page.getByRole('region', { name: 'Aktionen für die Auswahl' });
const pendingIds = async () =>
  ((await api('GET', '/review/summaries?limit=100')).summaries as any[]).map((s) => s.summaryId);

describe('a reviewer on /review', () => {
  it('completes a signed summary in a batch, and after a conflict completes the rest', async () => {
    const [first, changed, rest] = await signSummaries(3);

    const page = b.page;
    await openSignedIn(page, b.baseUrl, token, '/review');
    await page.getByRole('heading', { name: 'Prüfung', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Überblick' }).waitFor();
    await settled(page);

    // One summary, completed after the question with the count.
    await results(page).getByRole('checkbox', { name: first!.label }).check();
    await bar(page).getByText('1 Dokument ausgewählt').waitFor();
    await bar(page).getByRole('button', { name: 'Abschließen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Abschließen bestätigen' });
    await dialog.getByText('Abschließen: 1 Dokument?').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Abschließen' }).click();
    await page.getByText('1 Zusammenfassung abgeschlossen').waitFor();
    await settled(page);
    await results(page)
      .getByRole('checkbox', { name: first!.label })
      .waitFor({ state: 'detached' });
    expect(await pendingIds()).not.toContain(first!.id);

    // the appointment page says when review completed it and by whom.
    await page.goto(`/appointments/${first!.appointmentId}`);
    const summarySection = page.getByRole('region', { name: 'Terminzusammenfassung' });
    await summarySection
      .getByText(/^Abgeschlossen am \d\d\.\d\d\.\d{4}, \d\d:\d\d von .+/)
      .waitFor();
    await summarySection.getByText(/^Unterschrieben am /).waitFor();
    await page.goto('/review');
    await settled(page);

    // Two selected; one is completed meanwhile by someone else.
    await results(page).getByRole('checkbox', { name: changed!.label }).check();
    await results(page).getByRole('checkbox', { name: rest!.label }).check();
    await api('POST', '/summaries/batch-process', { ids: [changed!.id] });
    await bar(page).getByRole('button', { name: 'Abschließen' }).click();
    await dialog.getByRole('button', { name: 'Abschließen' }).click();
    const conflict = page.getByRole('dialog', { name: 'Nichts wurde abgeschlossen' });
    await conflict
      .getByText('1 Dokument wartet nicht mehr auf Prüfung', { exact: false })
      .waitFor();
    await conflict.getByText('jetzt: abgeschlossen', { exact: false }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await conflict
      .getByRole('button', { name: 'Abwählen und das übrige Dokument abschließen' })
      .click();
    await page.getByText('1 Zusammenfassung abgeschlossen').waitFor();
    await settled(page);
    const left = await pendingIds();
    expect(left).not.toContain(rest!.id);
    expect(left).not.toContain(changed!.id);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });
});

describe('an onboarding manager, who may not read clinical content', () => {
  it('sees no clinical fields in the client record and cannot complete what waits on /review', async () => {
    const [waiting] = await signSummaries(1);
    // A client with a diagnosis (set by the admin).
    await api('PUT', `/admin/client/${waiting!.clientId}`, {
      diagnosis: 'Erschöpfungssyndrom',
      notes: 'Notiz der Coachin',
    });
    const om = await signInByPasscode(b.baseUrl, 'onboarding@sprechstunde.demo');
    const page = b.page;
    await openSignedIn(page, b.baseUrl, om, `/clients/${waiting!.clientId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByText('Patientenkarte', { exact: true }).first().waitFor();
    const record = await page.locator('main').textContent();
    expect(record).not.toContain('Erschöpfungssyndrom');
    expect(record).not.toContain('Notiz der Coachin');
    expect(record).not.toContain('Diagnose');

    await page.goto('/review');
    await page.getByRole('heading', { name: 'Prüfung', level: 1 }).waitFor();
    await settled(page);
    await results(page)
      .getByText(waiting!.label.replace(/^Dokument (.*), .* auswählen$/, '$1'))
      .first()
      .waitFor();
    expect(await results(page).getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Abschließen' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });
});

describe('a patient card from the coach to the reviewer and the client', () => {
  it('is written and signed by the coach, completed on /review, and read by the client without review comments', async () => {
    const coach = await signInByPasscode(b.baseUrl, 'coach2@sprechstunde.demo');
    const asCoach = await fetch(`${b.baseUrl}/api/patient-cards/incomplete?limit=100`, {
      headers: { authorization: `Bearer ${coach}` },
    });
    const item = ((await asCoach.json()) as { patientCards: any[] }).patientCards.find(
      (c) => c.patientCardId === null,
    );
    expect(item, 'a client of the demo coach without a patient card').toBeDefined();
    const name = `${item.client.firstName} ${item.client.lastName}`;
    const clientId = item.client.id as string;
    // The client's address, made unique so that the client's own sign-in is theirs alone.
    const email = `karte-${Date.now().toString(36)}@example.org`;
    await api('PUT', `/admin/client/${clientId}`, { email });

    // The coach writes the card and signs it.
    const page = b.page;
    await openSignedIn(
      page,
      b.baseUrl,
      coach,
      `/clients/${clientId}/patient-card?appointmentId=${item.appointmentId}`,
    );
    await page.getByLabel('Anlass der Begleitung').fill('Erschöpfung nach Jobwechsel');
    await page
      .getByLabel('Einwilligung in die Verarbeitung von Gesundheitsdaten liegt vor')
      .check();
    await page
      .getByRole('status')
      .filter({ hasText: /^Gespeichert$/ })
      .waitFor();
    await page.getByRole('button', { name: 'Unterschreiben', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: 'Dokument jetzt unterschreiben?' })
      .getByRole('button', { name: 'Ja, unterschreiben' })
      .click();
    await page.getByText('Unterschrieben – nur noch Nachträge möglich').waitFor();
    const card = await api('GET', `/client/${clientId}/patient-card`);
    expect(card.status).toBe('sent');
    await api(
      'POST',
      `/patient-card/${card.id}/review-comments`,
      { text: 'Ziele noch ergänzen' },
      201,
    );

    // The reviewer: the cards' overall status beside the tasks', then "Abschließen".
    const admin = await b.newContext();
    const reviewer = await admin.newPage();
    await openSignedIn(reviewer, b.baseUrl, token, '/review?tab=patientCards');
    const statuses = reviewer.getByRole('list', { name: 'Gesamtstatus' });
    const cards = statuses.getByRole('listitem').filter({ hasText: 'Patientenkarten' });
    const overall = await api('GET', '/patient-cards/overall-status');
    await cards
      .getByText(overall.status === 'blocker' ? /Es gibt Blocker/ : 'Alles im Plan')
      .waitFor();
    if (overall.overdue > 0)
      await cards
        .getByText(new RegExp(`${overall.overdue} Dokumente? (ist|sind) mehr als 48 Stunden`))
        .waitFor();
    await statuses.getByRole('listitem').filter({ hasText: 'Alle Dokumente' }).waitFor();
    const list = reviewer.getByRole('region', {
      name: 'Unterschriebene Patientenkarten, die auf Prüfung warten',
    });
    await list.and(reviewer.locator('[aria-busy="false"]')).waitFor();
    await list.getByRole('checkbox', { name: new RegExp(`^Dokument ${name}, `) }).check();
    await bar(reviewer).getByRole('button', { name: 'Abschließen' }).click();
    await reviewer
      .getByRole('dialog', { name: 'Abschließen bestätigen' })
      .getByRole('button', { name: 'Abschließen' })
      .click();
    await reviewer.getByText('1 Patientenkarte abgeschlossen').waitFor();
    expect((await api('GET', `/client/${clientId}/patient-card`)).status).toBe('completed');
    expect(await seriousAxeViolations(reviewer)).toEqual([]);

    // Staff send the client a sign-in link from the client page.
    await reviewer.goto(`/clients/${clientId}`);
    await reviewer.getByText(`Der Anmeldelink geht an ${email}`, { exact: false }).waitFor();
    await reviewer.getByRole('button', { name: 'Anmeldelink senden' }).click();
    await reviewer.getByText('Der Anmeldelink wird per E-Mail versendet.').waitFor();
    await expect
      .poll(async () =>
        (await (await fetch(`${b.baseUrl}/dev/mailbox`)).text())
          .split('<article>')
          .some((m) => m.includes(`An: ${email}`) && m.includes('/client-signup/login')),
      )
      .toBe(true);

    // The client reads the signed card: signer and date, read-only, no review comment.
    const client = await registerByPasscode(b.baseUrl, email);
    const own = await (await b.newContext()).newPage();
    await openSignedIn(own, b.baseUrl, client, '/mein-termin');
    await own.getByRole('link', { name: 'Meine Dokumente ansehen' }).click();
    await own.getByRole('heading', { name: 'Meine Dokumente', level: 1 }).waitFor();
    await own.getByRole('heading', { name: 'Patientenkarte' }).waitFor();
    await own.getByText(/^Unterschrieben von .+ am \d\d\.\d\d\.\d{4}, \d\d:\d\d$/).waitFor();
    const facts = own.locator('main dl');
    await facts.getByText('Anlass der Begleitung').waitFor();
    await facts.getByText('Erschöpfung nach Jobwechsel').waitFor();
    // Read-only: nothing to type into or submit.
    expect(await own.locator('main').getByRole('textbox').count()).toBe(0);
    expect(await own.locator('main').getByRole('button').count()).toBe(0);
    expect(await own.locator('main').textContent()).not.toContain('Ziele noch ergänzen');
    expect(await seriousAxeViolations(own)).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  }, 120_000);
});
