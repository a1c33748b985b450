import { and, eq, inArray } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import iconv from 'iconv-lite';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billableItems,
  communicationAttachments,
  communications,
  events,
  invoiceNumberCounters,
  invoices,
} from '../../server/db/schema/index';
import type { Api } from '../support/api';
import { xrechnungRuleViolations } from '../support/xrechnung-rules';
import { ADDRESS, itemMaker, makeRule, statusesOf } from './billing-support';
import {
  expectFieldError,
  expectProblem,
  expectStatus,
  newClient,
  newCoach,
  startApi,
  unique,
  type Caller,
} from './fixtures';

let api: Api;
let admin: Caller;
let coach: Caller;
let superadmin: Caller;
let item: ReturnType<typeof itemMaker>;
let coachId: string;

const EXEMPT = 'Steuerfreie Heilbehandlung gem. § 4 Nr. 14 a UStG';
const year = Number(
  new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(new Date()),
);

beforeAll(async () => {
  ({
    api,
    callers: [admin, coach, superadmin],
  } = await startApi({}, 'ADMIN', 'COACH', 'SUPERADMIN'));
  // A VAT id in the practice settings: the seller's identifier every XRechnung needs (BR-CO-26).
  expectStatus(
    await api.call('PUT', '/api/admin/practice-settings', {
      as: superadmin,
      body: { vatId: 'DE123456789' },
    }),
    200,
  );
  item = itemMaker(api, admin);
  coachId = (await newCoach(api, admin)).id;
  await makeRule(api, admin, {
    name: 'Alles',
    amountCents: 11900,
    description: 'Coaching-Folgetermin',
  });
});
afterAll(() => api.close());

const db = () => api.database.db;
const run = (body: Record<string, unknown>) =>
  api.call('POST', '/api/invoices/runs', { as: admin, body });

async function approvedItem(
  clientId: string,
  set: Partial<typeof billableItems.$inferInsert> = {},
) {
  const id = await item(clientId, coachId, 'approved');
  if (Object.keys(set).length)
    await db().update(billableItems).set(set).where(eq(billableItems.id, id));
  return id;
}

async function download(path: string) {
  const res = await api.app.inject({ method: 'GET', url: path, headers: admin });
  return res;
}

async function pdfText(invoiceId: string) {
  const res = await download(`/api/invoices/${invoiceId}/pdf`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
  return (await extractText(pdf, { mergePages: true })).text;
}

describe('invoice run, documents, send, Storno, DATEV', () => {
  let selfPay: string;
  let sponsorInvoice: string;
  let itemIds: string[];

  it('issues one invoice per payer with consecutive numbers, and nothing twice', async () => {
    const jurgen = (
      await newClient(api, admin, {
        ...ADDRESS,
        firstName: 'Jürgen',
        lastName: `Müller-${unique()}`,
        email: `${unique()}@example.com`,
      })
    ).id;
    const other = (await newClient(api, admin, ADDRESS)).id;
    const sponsored = (await newClient(api, admin, { ...ADDRESS, campaign: 'FIRMA-GESUND' })).id;
    itemIds = [
      await approvedItem(jurgen),
      await approvedItem(jurgen, {
        description: 'Ärztliche Konsultation',
        amountCents: 8000,
        vatTreatment: 'exempt',
        vatRatePercent: 0,
        vatExemptionReason: EXEMPT,
      }),
      await approvedItem(other),
      await approvedItem(sponsored, { payerKind: 'sponsor' }),
    ];
    const pendingOne = await item(other, coachId, 'pending');

    // The sponsor FIRMA-GESUND is in no catalogue, so it has no address: issued only when asked for.
    const refused = await run({ itemIds });
    expectProblem(refused, 409, 'payer_address_missing');
    expect(refused.body.errors).toEqual([
      {
        field: 'issueWithoutAddress',
        code: 'payer_address_missing',
        message: 'FIRMA-GESUND: street, postalCode, city, invoiceEmail',
      },
    ]);
    const res = await run({ itemIds, issueWithoutAddress: true });
    expectStatus(res, 201);
    expect(res.body.itemCount).toBe(4);
    expect(res.body.invoices).toHaveLength(3);
    const numbers = res.body.invoices.map((i: { number: string }) => i.number).sort();
    const seqs = numbers.map((n: string) => Number(n.slice(5)));
    expect(numbers[0]).toMatch(new RegExp(`^${year}-\\d{5}$`));
    expect(seqs).toEqual([seqs[0], seqs[0] + 1, seqs[0] + 2]);

    const mine = res.body.invoices.find((i: { recipientName: string }) =>
      i.recipientName.startsWith('Jürgen'),
    );
    selfPay = mine.id;
    expect(mine).toMatchObject({
      kind: 'invoice',
      status: 'issued',
      payerKind: 'client',
      lineCount: 2,
      grossCents: 19900,
      netCents: 18000,
      vatCents: 1900,
      hasXRechnung: false,
    });
    sponsorInvoice = res.body.invoices.find(
      (i: { payerKind: string }) => i.payerKind === 'sponsor',
    ).id;

    const detail = await api.call('GET', `/api/invoices/${selfPay}`, { as: admin });
    expectStatus(detail, 200);
    expect(detail.body.vatGroups).toEqual([
      {
        vatTreatment: 'standard',
        vatRatePercent: 19,
        vatExemptionReason: null,
        netCents: 10000,
        vatCents: 1900,
        grossCents: 11900,
      },
      {
        vatTreatment: 'exempt',
        vatRatePercent: 0,
        vatExemptionReason: EXEMPT,
        netCents: 8000,
        vatCents: 0,
        grossCents: 8000,
      },
    ]);

    // An invoiced item is corrected by a Storno, not by cancelling it.
    const cancel = await api.call('PUT', '/api/billable-items/batch-cancel', {
      as: admin,
      body: { ids: [itemIds[2]] },
    });
    expectProblem(cancel, 409, 'batch_refused');
    expect(cancel.body.errors[0]).toMatchObject({ id: itemIds[2], code: 'on_invoice' });
    // The same items again, or a pending one: refused, nothing issued.
    const again = await run({ itemIds: [itemIds[0], pendingOne] });
    expectProblem(again, 409, 'batch_refused');
    expect(again.body.errors.map((e: { id: string }) => e.id)).toEqual([itemIds[0], pendingOne]);
    // The preview counts what a run takes now, and nothing is due after it.
    const preview = (query = '') =>
      api.call('GET', `/api/invoices/runs/preview${query}`, { as: admin });
    const due = await preview();
    expectStatus(due, 200);
    const open = await run({});
    expectStatus(open, 201);
    expect(due.body).toEqual({
      itemCount: open.body.itemCount,
      payerCount: open.body.invoices.length,
      grossCents: open.body.invoices.reduce(
        (sum: number, i: { grossCents: number }) => sum + i.grossCents,
        0,
      ),
      payersWithoutAddress: [],
      sellerIdentifierMissing: false,
    });
    expect((await preview()).body).toEqual({
      itemCount: 0,
      payerCount: 0,
      grossCents: 0,
      payersWithoutAddress: [],
      sellerIdentifierMissing: false,
    });
    expectFieldError(await preview('?fromDate=2026-02-01&toDate=2026-01-01'), 'toDate');
    expect(
      open.body.invoices.every(
        (i: { id: string }) => !res.body.invoices.some((j: { id: string }) => j.id === i.id),
      ),
    ).toBe(true);
    expect(
      await db()
        .select()
        .from(events)
        .where(and(eq(events.type, 'invoice.issued'), eq(events.entityId, selfPay))),
    ).toHaveLength(1);
  });

  it('prints the § 14 UStG fields into the PDF, umlauts and € included', async () => {
    const text = await pdfText(selfPay);
    const [row] = await db().select().from(invoices).where(eq(invoices.id, selfPay));
    for (const expected of [
      'Sprechstunde', // practice name
      'Musterstraße 1, 10115 Berlin', // practice address
      'Steuernummer: 11/111/11111 · USt-IdNr.: DE123456789',
      'Jürgen Müller', // recipient
      'Hauptstr. 1',
      `Rechnung ${row!.number}`,
      'Rechnungsdatum:',
      'Leistungszeitraum:',
      'Coaching-Folgetermin',
      'Ärztliche Konsultation',
      '19 % USt: 100,00 € netto, 19,00 € USt, 119,00 € brutto',
      EXEMPT,
      'Gesamtbetrag: 199,00 €',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('gives a sponsor without a recorded address no XRechnung (BR-DE-8/9): the PDF goes to the address typed at send', async () => {
    expectStatus(await api.call('GET', `/api/invoices/${selfPay}/xrechnung`, { as: admin }), 404);
    // No invoice e-mail recorded for the sponsor: the send asks for one.
    expectFieldError(
      await api.call('POST', `/api/invoices/${sponsorInvoice}/send`, { as: admin, body: {} }),
      'email',
    );
    const sent = await api.call('POST', `/api/invoices/${sponsorInvoice}/send`, {
      as: admin,
      body: { email: 'buchhaltung@firma.example' },
    });
    expectStatus(sent, 200);
    expect(sent.body).toMatchObject({
      status: 'sent',
      sentTo: 'buchhaltung@firma.example',
      hasXRechnung: false,
    });
    expectStatus(
      await api.call('GET', `/api/invoices/${sponsorInvoice}/xrechnung`, { as: admin }),
      404,
    );
  });

  it('sends the invoice with its PDF attached and marks its items invoice_sent', async () => {
    const res = await api.call('POST', `/api/invoices/${selfPay}/send`, {
      as: admin,
      body: {},
      headers: { 'Idempotency-Key': `send-${unique()}` },
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      status: 'sent',
      sentTo: expect.stringMatching(/@example\.com$/),
    });
    expect(await statusesOf(api, itemIds.slice(0, 2))).toEqual({
      [itemIds[0]!]: 'invoice_sent',
      [itemIds[1]!]: 'invoice_sent',
    });
    const [mail] = await db()
      .select()
      .from(communications)
      .where(
        and(eq(communications.template, 'invoice'), eq(communications.recipient, res.body.sentTo)),
      );
    expect(mail!.subject).toBe(`Rechnung ${res.body.number}`);
    const files = await db()
      .select()
      .from(communicationAttachments)
      .where(eq(communicationAttachments.communicationId, mail!.id));
    expect(files.map((f) => f.contentType)).toEqual(['application/pdf']);
    expect(Buffer.from(files[0]!.content.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    await api.app.jobs.runDue();
    const [after] = await db().select().from(communications).where(eq(communications.id, mail!.id));
    expect(after!.status).toBe('sent');
    expect(
      await db()
        .select()
        .from(events)
        .where(
          and(
            eq(events.type, 'billable_item.invoice_sent'),
            inArray(events.entityId, itemIds.slice(0, 2)),
          ),
        ),
    ).toHaveLength(2);
  });

  it('cancels by a cancellation invoice with its own number and returns the items to approved', async () => {
    const res = await api.call('POST', `/api/invoices/${selfPay}/cancel`, {
      as: admin,
      body: { reason: 'Falsche Anschrift' },
    });
    expectStatus(res, 201);
    expect(res.body).toMatchObject({
      kind: 'cancellation',
      cancelsInvoiceId: selfPay,
      grossCents: -19900,
      vatCents: -1900,
    });
    const original = await api.call('GET', `/api/invoices/${selfPay}`, { as: admin });
    expect(original.body).toMatchObject({ status: 'cancelled', cancelledByInvoiceId: res.body.id });
    expect(await statusesOf(api, itemIds.slice(0, 2))).toEqual({
      [itemIds[0]!]: 'approved',
      [itemIds[1]!]: 'approved',
    });
    expect(await pdfText(res.body.id)).toContain(`Storno zur Rechnung ${original.body.number}`);
    expectProblem(
      await api.call('POST', `/api/invoices/${selfPay}/cancel`, { as: admin, body: {} }),
      409,
      'invoice_cancelled',
    );
    expectProblem(
      await api.call('POST', `/api/invoices/${selfPay}/send`, { as: admin, body: {} }),
      409,
      'invoice_cancelled',
    );
    const stornoSent = await api.call('POST', `/api/invoices/${res.body.id}/send`, {
      as: admin,
      body: {},
    });
    expectStatus(stornoSent, 200);
    expect(stornoSent.body.status).toBe('sent');
    // The returned items go on a new invoice.
    const again = await run({ itemIds: itemIds.slice(0, 2) });
    expectStatus(again, 201);
    expect(again.body.invoices).toHaveLength(1);
  });

  it('exports a DATEV Buchungsstapel in windows-1252 that reads back', async () => {
    const today = new Intl.DateTimeFormat('sv', { timeZone: 'Europe/Berlin' }).format(new Date());
    const res = await download(`/api/invoices/datev-export?fromDate=${today}&toDate=${today}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('EXTF_Buchungsstapel');
    const rows = iconv
      .decode(res.rawPayload, 'win1252')
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split(';'));
    expect(rows[0]!.slice(0, 5)).toEqual(['"EXTF"', '700', '21', '"Buchungsstapel"', '13']);
    expect(rows[1]![0]).toBe('Umsatz (ohne Soll/Haben-Kz)');
    const cancelled = await api.call('GET', `/api/invoices/${selfPay}`, { as: admin });
    const booked = rows.filter((r) => r[10] === `"${cancelled.body.number}"`);
    expect(booked.map((r) => [r[0], r[1], r[6], r[7]])).toEqual([
      ['119,00', '"S"', '10000', '8400'],
      ['80,00', '"S"', '10000', '8100'],
    ]);
    expect(booked[0]![13]).toMatch(/^"Jürgen Müller/);
    expect(rows.filter((r) => r[1] === '"H"' && r[13]!.startsWith('"Storno Jürgen'))).toHaveLength(
      2,
    );
  });

  it('is for admins: coaches get 403', async () => {
    expectStatus(await api.call('GET', '/api/invoices', { as: coach }), 403);
    expectStatus(await api.call('POST', '/api/invoices/runs', { as: coach, body: {} }), 403);
    const list = await api.call('GET', '/api/invoices', { as: admin, query: { limit: 100 } });
    expectStatus(list, 200);
    expect(list.body.total).toBeGreaterThanOrEqual(5);
  });

  it('filters the list by invoice date (from/to, both days included)', async () => {
    const today = new Intl.DateTimeFormat('sv', { timeZone: 'Europe/Berlin' }).format(new Date());
    const list = (query: Record<string, string | number>) =>
      api.call('GET', '/api/invoices', { as: admin, query: { limit: 100, ...query } });
    const all = await list({});
    const todays = await list({ fromDate: today, toDate: today });
    expectStatus(todays, 200);
    expect(todays.body.total).toBe(all.body.total);
    expect(
      todays.body.invoices.every((i: { invoiceDate: string }) => i.invoiceDate === today),
    ).toBe(true);
    expect((await list({ fromDate: '2099-01-01' })).body).toEqual({ invoices: [], total: 0 });
    expect((await list({ toDate: '2000-12-31' })).body.total).toBe(0);
    expectFieldError(await list({ fromDate: '2026-02-01', toDate: '2026-01-01' }), 'toDate');
    expectFieldError(await list({ fromDate: '1.2.2026' }), 'fromDate');
  });
});

describe('recipient addresses of sponsors and insurers (§ 14 UStG, XRechnung buyer)', () => {
  const parse = (xml: string) =>
    new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, parseTagValue: false }).parse(
      xml,
    ).Invoice;
  let sponsorInvoice: string;

  it('refuses a German postal code that is not five digits, naming the field', async () => {
    const res = await api.call('POST', '/api/admin/campaigns', {
      as: admin,
      body: { code: `bad-${unique()}`, name: 'Falsch', postalCode: '1011' },
    });
    expectFieldError(res, 'postalCode');
  });

  it('prints the sponsor’s stored address on the PDF and makes the XRechnung at issue with it as buyer', async () => {
    const code = `firma-${unique()}`;
    const campaign = await api.call('POST', '/api/admin/campaigns', {
      as: admin,
      body: {
        code,
        name: 'Gesund GmbH',
        street: ' Industriestraße 7 ',
        postalCode: '20095',
        city: 'Hamburg',
        invoiceEmail: 'rechnung@gesund.example',
      },
    });
    expectStatus(campaign, 201);
    expect(campaign.body).toMatchObject({
      street: 'Industriestraße 7',
      postalCode: '20095',
      city: 'Hamburg',
      country: 'DE',
      invoiceEmail: 'rechnung@gesund.example',
    });
    const client = (await newClient(api, admin, { ...ADDRESS, campaign: code })).id;
    const items = [
      await approvedItem(client, { payerKind: 'sponsor' }),
      await approvedItem(client, {
        payerKind: 'sponsor',
        description: 'Ärztliche Konsultation',
        amountCents: 8000,
        vatTreatment: 'exempt',
        vatRatePercent: 0,
        vatExemptionReason: EXEMPT,
      }),
    ];
    const res = await run({ itemIds: items });
    expectStatus(res, 201);
    expect(res.body.invoices).toHaveLength(1);
    expect(res.body.invoices[0]).toMatchObject({
      payerKind: 'sponsor',
      recipientName: 'Gesund GmbH',
      hasXRechnung: true,
    });
    sponsorInvoice = res.body.invoices[0].id;

    const text = await pdfText(sponsorInvoice);
    for (const expected of [
      'Gesund GmbH',
      'Industriestraße 7',
      '20095 Hamburg',
      `Referenz: ${code}`,
    ])
      expect(text).toContain(expected);

    const xml = await download(`/api/invoices/${sponsorInvoice}/xrechnung`);
    expect(xml.statusCode).toBe(200);
    const buyer = parse(xml.body).AccountingCustomerParty.Party;
    expect(buyer.PostalAddress).toEqual({
      StreetName: 'Industriestraße 7',
      CityName: 'Hamburg',
      PostalZone: '20095',
      Country: { IdentificationCode: 'DE' },
    });
    expect(buyer.EndpointID['#text']).toBe('rechnung@gesund.example');
    expect(buyer.PartyLegalEntity.RegistrationName).toBe('Gesund GmbH');
    expect(xrechnungRuleViolations(xml.body)).toEqual([]);

    // Sent to the stored invoice e-mail without typing one, with the XML attached.
    const sent = await api.call('POST', `/api/invoices/${sponsorInvoice}/send`, {
      as: admin,
      body: {},
    });
    expectStatus(sent, 200);
    expect(sent.body.sentTo).toBe('rechnung@gesund.example');
    const [mail] = await db()
      .select()
      .from(communications)
      .where(
        and(
          eq(communications.template, 'invoice'),
          eq(communications.recipient, 'rechnung@gesund.example'),
        ),
      );
    const files = await db()
      .select()
      .from(communicationAttachments)
      .where(eq(communicationAttachments.communicationId, mail!.id));
    expect(files.map((f) => f.contentType)).toEqual(['application/pdf', 'application/xml']);
  });

  it('gives an insurer’s invoice its stored address, with the IK number as buyer reference', async () => {
    const name = `BKK Test ${unique()}`;
    const insurer = await api.call('POST', '/api/admin/insurers', {
      as: admin,
      body: {
        name,
        ikNumber: '108036123',
        street: 'Kassenweg 2',
        postalCode: '80331',
        city: 'München',
        invoiceEmail: 'abrechnung@bkk.example',
      },
    });
    expectStatus(insurer, 201);
    const edited = await api.call('PUT', `/api/admin/insurers/${insurer.body.id}`, {
      as: admin,
      body: { street: 'Kassenweg 3' },
    });
    expect(edited.body).toMatchObject({
      street: 'Kassenweg 3',
      postalCode: '80331',
      city: 'München',
    });
    const client = (await newClient(api, admin, { ...ADDRESS, insurer: name })).id;
    const res = await run({
      itemIds: [await approvedItem(client, { payerKind: 'statutory_insurer', insurer: name })],
    });
    expectStatus(res, 201);
    const id = res.body.invoices[0].id;
    const text = await pdfText(id);
    for (const expected of [name, 'Kassenweg 3', '80331 München', 'Referenz: 108036123'])
      expect(text).toContain(expected);
    const xml = await download(`/api/invoices/${id}/xrechnung`);
    expect(xml.statusCode).toBe(200);
    const doc = parse(xml.body);
    expect(doc.BuyerReference).toBe('108036123');
    expect(doc.AccountingCustomerParty.Party.PostalAddress).toMatchObject({
      StreetName: 'Kassenweg 3',
      CityName: 'München',
      PostalZone: '80331',
    });
    expect(xrechnungRuleViolations(xml.body)).toEqual([]);
  });

  it('the Storno’s XRechnung passes the local BR-DE checks too, and the checks catch a missing field', async () => {
    const storno = await api.call('POST', `/api/invoices/${sponsorInvoice}/cancel`, {
      as: admin,
      body: { reason: 'Doppelt berechnet' },
    });
    expectStatus(storno, 201);
    expect(storno.body.hasXRechnung).toBe(true);
    const xml = (await download(`/api/invoices/${storno.body.id}/xrechnung`)).body;
    expect(parse(xml).InvoiceTypeCode).toBe('384');
    expect(xrechnungRuleViolations(xml)).toEqual([]);
    // The checker is not a rubber stamp: without the buyer's postal code, seller phone and buyer reference it names the rules.
    const broken = xml
      .replace(
        /(<cac:AccountingCustomerParty>[\s\S]*?)<cbc:PostalZone>[^<]*<\/cbc:PostalZone>/,
        '$1',
      )
      .replace(/<cbc:Telephone>[^<]*<\/cbc:Telephone>/, '')
      .replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, '');
    expect(xrechnungRuleViolations(broken)).toEqual(['BR-DE-6', 'BR-DE-9', 'BR-DE-15', 'BR-DE-27']);
  });
});

describe('numbers under concurrency', () => {
  it('concurrent runs and cancellations never skip or reuse a number', async () => {
    const items: string[] = [];
    for (let i = 0; i < 8; i++)
      items.push(await approvedItem((await newClient(api, admin, ADDRESS)).id));
    const [someInvoice] = await db()
      .select({ id: invoices.id })
      .from(invoices)
      .where(eq(invoices.status, 'issued'))
      .limit(1);
    const answers = await Promise.all([
      run({ itemIds: items.slice(0, 2) }),
      run({ itemIds: items.slice(2, 4) }),
      run({ itemIds: items.slice(4, 6) }),
      run({ itemIds: items.slice(6, 8) }),
      api.call('POST', `/api/invoices/${someInvoice!.id}/cancel`, { as: admin, body: {} }),
    ]);
    for (const a of answers) expectStatus(a, 201);
    const rows = await db()
      .select({ sequence: invoices.sequence })
      .from(invoices)
      .where(eq(invoices.year, year));
    const seqs = rows.map((r) => r.sequence).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const [counter] = await db()
      .select()
      .from(invoiceNumberCounters)
      .where(eq(invoiceNumberCounters.year, year));
    expect(counter!.lastNumber).toBe(seqs.length);
  });

  it('a refused run uses no number', async () => {
    const before = await db()
      .select()
      .from(invoiceNumberCounters)
      .where(eq(invoiceNumberCounters.year, year));
    const id = await approvedItem((await newClient(api, admin, ADDRESS)).id);
    expectProblem(
      await run({ itemIds: [id, '6f1c2d3e-4b5a-4c6d-8e7f-001122334455'] }),
      409,
      'batch_refused',
    );
    const after = await db()
      .select()
      .from(invoiceNumberCounters)
      .where(eq(invoiceNumberCounters.year, year));
    expect(after).toEqual(before);
  });
});
