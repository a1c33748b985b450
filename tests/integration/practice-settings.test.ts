import { and, desc, eq } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billableItems, communications, events } from '../../server/db/schema/index';
import type { Api } from '../support/api';
import { xrechnungRuleViolations } from '../support/xrechnung-rules';
import { ADDRESS, itemMaker, makeRule } from './billing-support';
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

/**
 * the practice settings. A SUPERADMIN keeps them (400 naming the field for bad
 * input); the public legal answer, the invoices (PDF and XRechnung seller, BT-30/BT-31) and the
 * mail signature use them, not the PRACTICE_* defaults; an XRechnung without a seller
 * identifier (BR-CO-26) is refused with a German reason; sponsors and insurers without an
 * address are named before a run and issued only when asked for.
 */
let api: Api;
let admin: Caller;
let superadmin: Caller;
let item: ReturnType<typeof itemMaker>;
let coachId: string;

beforeAll(async () => {
  ({
    api,
    callers: [admin, superadmin],
  } = await startApi({}, 'ADMIN', 'SUPERADMIN'));
  item = itemMaker(api, admin);
  coachId = (await newCoach(api, admin)).id;
  await makeRule(api, admin, {
    name: 'Alles',
    amountCents: 11900,
    description: 'Coaching-Folgetermin',
  });
}, 240_000);
afterAll(() => api?.close());

const put = (body: Record<string, unknown>, as: Caller = superadmin) =>
  api.call('PUT', '/api/admin/practice-settings', { as, body });
const run = (body: Record<string, unknown>) =>
  api.call('POST', '/api/invoices/runs', { as: admin, body });
const preview = () => api.call('GET', '/api/invoices/runs/preview', { as: admin });
const parse = (xml: string) =>
  new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, parseTagValue: false }).parse(xml)
    .Invoice;

async function pdfText(id: string) {
  const res = await api.app.inject({
    method: 'GET',
    url: `/api/invoices/${id}/pdf`,
    headers: admin,
  });
  return (
    await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), { mergePages: true })
  ).text;
}

/** An insurer with a complete invoice address and one approved item for it. */
async function insurerItem() {
  const name = `BKK Praxis ${unique()}`;
  expectStatus(
    await api.call('POST', '/api/admin/insurers', {
      as: admin,
      body: {
        name,
        ikNumber: '108036123',
        street: 'Kassenweg 2',
        postalCode: '80331',
        city: 'München',
        invoiceEmail: 'abrechnung@bkk.example',
      },
    }),
    201,
  );
  const client = (await newClient(api, admin, { ...ADDRESS, insurer: name })).id;
  const id = await item(client, coachId, 'approved');
  await api.database.db
    .update(billableItems)
    .set({ payerKind: 'statutory_insurer', insurer: name })
    .where(eq(billableItems.id, id));
  return id;
}

describe('practice settings', () => {
  it('start as the server’s PRACTICE_* defaults, publicly without tax number and IBAN', async () => {
    const legal = await api.call('GET', '/api/legal');
    expectStatus(legal, 200);
    expect(legal.body).toMatchObject({
      name: 'Sprechstunde',
      street: 'Musterstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      vatId: null,
      updatedAt: null,
    });
    expect(legal.body).not.toHaveProperty('taxNumber');
    expect(legal.body).not.toHaveProperty('iban');
    const own = await api.call('GET', '/api/admin/practice-settings', { as: superadmin });
    expect(own.body).toMatchObject({
      taxNumber: '11/111/11111',
      iban: 'DE02120300000000202051',
      updatedAt: null,
    });
    expectStatus(await api.call('GET', '/api/admin/practice-settings', { as: admin }), 403);
    expectStatus(await put({ name: 'Nicht meins' }, admin), 403);
  });

  it('refuse bad input with 400 naming the field, and store nothing', async () => {
    expectFieldError(await put({ name: '   ' }), 'name');
    expectFieldError(await put({ postalCode: '1011' }), 'postalCode');
    expectFieldError(await put({ vatId: 'D1' }), 'vatId');
    expectFieldError(await put({ iban: 'DE02120300000000202052' }), 'iban');
    expectFieldError(await put({ email: 'keine-adresse' }), 'email');
    expectFieldError(await put({ taxNumber: null }), 'taxNumber');
    expectFieldError(await put({ registerNumber: 'HRB 1' }), 'registerCourt');
    expectFieldError(await put({ unknown: 'x' }), 'unknown');
    expect((await api.call('GET', '/api/legal')).body.updatedAt).toBeNull();
  });

  it('refuse an XRechnung without VAT id or register number (BR-CO-26), with a German reason', async () => {
    const id = await insurerItem();
    expect((await preview()).body.sellerIdentifierMissing).toBe(true);
    const refused = await run({ itemIds: [id] });
    expectProblem(refused, 409, 'seller_identifier_missing');
    expect(refused.body.detail).toContain('USt-IdNr. oder die Handelsregisternummer');
    // Only a register number: allowed (BT-30) and the run goes through.
    expectStatus(
      await put({ registerCourt: 'Amtsgericht Charlottenburg', registerNumber: 'HRB 234567 B' }),
      200,
    );
    expect((await preview()).body.sellerIdentifierMissing).toBe(false);
    const issued = await run({ itemIds: [id] });
    expectStatus(issued, 201);
    const xml = (
      await api.app.inject({
        method: 'GET',
        url: `/api/invoices/${issued.body.invoices[0].id}/xrechnung`,
        headers: admin,
      })
    ).body;
    expect(parse(xml).AccountingSupplierParty.Party.PartyLegalEntity).toMatchObject({
      CompanyID: 'HRB 234567 B',
    });
    expect(xrechnungRuleViolations(xml)).toEqual([]);
    // Without it the local rules name BR-CO-26, as the official ones did.
    const stripped = xml.replace(/<cbc:CompanyID>HRB 234567 B<\/cbc:CompanyID>/, '');
    expect(xrechnungRuleViolations(stripped)).toEqual(['BR-CO-26']);
  });

  it('saved, name the practice on the legal answer, the invoice PDF, the XRechnung and the mail signature', async () => {
    const saved = await put({
      name: 'Praxis am See',
      street: ' Seeweg 4 ',
      postalCode: '14467',
      city: 'Potsdam',
      vatId: 'de 987 654 321',
      managingPerson: 'Dr. Lena See',
      dpoName: 'Datenschutz Nord',
      dpoEmail: 'dsb@praxis.example',
      supervisoryAuthority: 'Landesbeauftragte für den Datenschutz Brandenburg',
      iban: 'DE89 3704 0044 0532 0130 00',
    });
    expectStatus(saved, 200);
    expect(saved.body).toMatchObject({
      street: 'Seeweg 4',
      vatId: 'DE987654321',
      iban: 'DE89370400440532013000',
    });
    expect(saved.body.updatedAt).not.toBeNull();
    const legal = (await api.call('GET', '/api/legal')).body;
    expect(legal).toMatchObject({
      name: 'Praxis am See',
      city: 'Potsdam',
      managingPerson: 'Dr. Lena See',
      registerNumber: 'HRB 234567 B',
      dpoEmail: 'dsb@praxis.example',
    });
    const [event] = await api.database.db
      .select()
      .from(events)
      .where(eq(events.type, 'practice_settings.updated'))
      .orderBy(desc(events.occurredAt));
    expect(event!.changes).toMatchObject({ name: { from: 'Sprechstunde', to: 'Praxis am See' } });

    const id = await insurerItem();
    const issued = await run({ itemIds: [id] });
    expectStatus(issued, 201);
    const invoice = issued.body.invoices[0].id;
    const text = await pdfText(invoice);
    for (const expected of [
      'Praxis am See',
      'Seeweg 4, 14467 Potsdam',
      'USt-IdNr.: DE987654321',
      'Amtsgericht Charlottenburg HRB 234567 B',
      'DE89370400440532013000',
    ]) {
      expect(text).toContain(expected);
    }
    const xml = (
      await api.app.inject({
        method: 'GET',
        url: `/api/invoices/${invoice}/xrechnung`,
        headers: admin,
      })
    ).body;
    const seller = parse(xml).AccountingSupplierParty.Party;
    expect(seller.PartyLegalEntity.RegistrationName).toBe('Praxis am See');
    expect(seller.PartyTaxScheme).toContainEqual({
      CompanyID: 'DE987654321',
      TaxScheme: { ID: 'VAT' },
    });
    expect(xrechnungRuleViolations(xml)).toEqual([]);

    // The invoice mail and a staff invitation are signed with the practice's name.
    expectStatus(
      await api.call('POST', `/api/invoices/${invoice}/send`, { as: admin, body: {} }),
      200,
    );
    const [mail] = await api.database.db
      .select()
      .from(communications)
      .where(
        and(
          eq(communications.template, 'invoice'),
          eq(communications.recipient, 'abrechnung@bkk.example'),
        ),
      );
    expect(mail!.body.trimEnd().endsWith('Praxis am See')).toBe(true);
    const email = `${unique('neu')}@praxis.example`;
    expectStatus(
      await api.call('POST', '/api/user', { as: admin, body: { email, role: 'ADMIN' } }),
      201,
    );
    const [invitation] = await api.database.db
      .select()
      .from(communications)
      .where(eq(communications.recipient, email));
    expect(invitation!.subject).toBe('Ihr Konto bei Praxis am See: bitte freischalten');
    expect(invitation!.body).toContain('Ihr Team von Praxis am See');
  });
});

describe('sponsors and insurers without an address', () => {
  it('are named before a run, with what is missing and the entry to complete, and issued only when asked for', async () => {
    const code = `ohne-${unique()}`;
    const campaign = await api.call('POST', '/api/admin/campaigns', {
      as: admin,
      body: { code, name: 'Firma ohne Anschrift', city: 'Köln' },
    });
    expectStatus(campaign, 201);
    const client = (await newClient(api, admin, { ...ADDRESS, campaign: code })).id;
    const id = await item(client, coachId, 'approved');
    await api.database.db
      .update(billableItems)
      .set({ payerKind: 'sponsor' })
      .where(eq(billableItems.id, id));

    const due = await preview();
    expect(due.body.payersWithoutAddress).toEqual([
      {
        payerKind: 'sponsor',
        name: 'Firma ohne Anschrift',
        catalog: 'campaign',
        catalogId: campaign.body.id,
        missing: ['street', 'postalCode', 'invoiceEmail'],
        itemCount: 1,
      },
    ]);
    expectProblem(await run({ itemIds: [id] }), 409, 'payer_address_missing');
    const issued = await run({ itemIds: [id], issueWithoutAddress: true });
    expectStatus(issued, 201);
    expect(issued.body.invoices[0]).toMatchObject({ payerKind: 'sponsor', hasXRechnung: false });
  });
});
