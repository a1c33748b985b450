import { XMLParser } from 'fast-xml-parser';

/**
 * The XRechnung 3.0 business rules (BR-DE-*) and the EN 16931 basics that can be checked here
 * without the KoSIT validator (its Java jar and scenario files are downloads this project cannot
 * reach). Each rule reads the UBL syntax the way the KoSIT Schematron does, on the element
 * the rule names; the answer is the ids of the rules the document breaks (empty = passes).
 * With the EN 16931 co-occurrence and calculation rules BR-CO-3 … BR-CO-26 (the
 * official rules had found BR-CO-26 broken, which these checks did not know). Not a
 * replacement for the KoSIT validator: no XSD, no code lists (BR-CO-5 … BR-CO-8 compare reason
 * codes with their code list and are left out; the invoices here have no allowances or charges).
 */
type Node = Record<string, unknown>;

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  parseTagValue: false,
});

const text = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'object' && '#text' in (value as Node))
    return String((value as Node)['#text']).trim();
  return '';
};
const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const at = (node: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (n, key) => (n && typeof n === 'object' ? (n as Node)[key] : undefined),
    node,
  );

const ALLOWED_TYPE_CODES = ['326', '380', '384', '389', '381', '875', '876', '877'];
const XRECHNUNG_3 = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';

export function xrechnungRuleViolations(xml: string): string[] {
  const invoice = parser.parse(xml).Invoice as Node | undefined;
  if (!invoice) return ['UBL-root'];
  const seller = at(invoice, 'AccountingSupplierParty', 'Party');
  const buyer = at(invoice, 'AccountingCustomerParty', 'Party');
  const contact = at(seller, 'Contact');
  const means = list(invoice.PaymentMeans as Node | Node[] | undefined);
  const subtotals = list(at(invoice, 'TaxTotal') as Node | Node[] | undefined).flatMap((t) =>
    list(at(t, 'TaxSubtotal') as Node | Node[] | undefined),
  );
  const categories = [
    ...subtotals.map((s) => at(s, 'TaxCategory')),
    ...list(invoice.InvoiceLine as Node | Node[] | undefined).map((l) =>
      at(l, 'Item', 'ClassifiedTaxCategory'),
    ),
  ];
  const taxSchemes = list(at(seller, 'PartyTaxScheme') as Node | Node[] | undefined);
  const email = text(at(contact, 'ElectronicMail'));
  const phone = text(at(contact, 'Telephone'));

  const rules: [string, boolean][] = [
    ['BR-DE-1', means.length > 0],
    ['BR-DE-2', contact !== undefined],
    ['BR-DE-3', text(at(seller, 'PostalAddress', 'CityName')) !== ''],
    ['BR-DE-4', text(at(seller, 'PostalAddress', 'PostalZone')) !== ''],
    ['BR-DE-5', text(at(contact, 'Name')) !== ''],
    ['BR-DE-6', phone !== ''],
    ['BR-DE-7', email !== ''],
    ['BR-DE-8', text(at(buyer, 'PostalAddress', 'CityName')) !== ''],
    ['BR-DE-9', text(at(buyer, 'PostalAddress', 'PostalZone')) !== ''],
    ['BR-DE-14', categories.every((c) => text(at(c, 'Percent')) !== '')],
    ['BR-DE-15', text(invoice.BuyerReference) !== ''],
    [
      'BR-DE-16',
      !categories.some((c) =>
        ['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M'].includes(text(at(c, 'ID'))),
      ) || taxSchemes.some((s) => text(at(s, 'CompanyID')) !== ''),
    ],
    ['BR-DE-17', ALLOWED_TYPE_CODES.includes(text(invoice.InvoiceTypeCode))],
    ['BR-DE-21', text(invoice.CustomizationID) === XRECHNUNG_3],
    [
      'BR-DE-23-a',
      means
        .filter((m) => ['30', '58'].includes(text(m.PaymentMeansCode)))
        .every((m) => text(at(m, 'PayeeFinancialAccount', 'ID')) !== ''),
    ],
    [
      'BR-DE-26',
      text(invoice.InvoiceTypeCode) !== '384' || at(invoice, 'BillingReference') !== undefined,
    ],
    ['BR-DE-27', (phone.match(/[0-9]/g) ?? []).length >= 3],
    ['BR-DE-28', /^[^@\s]+@[^@\s]+$/.test(email)],
    // EN 16931 / PEPPOL rules that XRechnung 3.0 makes mandatory: both electronic addresses.
    ['PEPPOL-EN16931-R020', text(at(seller, 'EndpointID')) !== ''],
    ['PEPPOL-EN16931-R010', text(at(buyer, 'EndpointID')) !== ''],
    ['BR-6', text(at(seller, 'PartyLegalEntity', 'RegistrationName')) !== ''],
    ['BR-7', text(at(buyer, 'PartyLegalEntity', 'RegistrationName')) !== ''],
    ['BR-16', list(invoice.InvoiceLine as Node | Node[] | undefined).length > 0],
    ...coRules(invoice, seller, subtotals),
    [
      'BR-E-10',
      subtotals
        .filter((s) => text(at(s, 'TaxCategory', 'ID')) === 'E')
        .every(
          (s) =>
            text(at(s, 'TaxCategory', 'TaxExemptionReason')) !== '' ||
            text(at(s, 'TaxCategory', 'TaxExemptionReasonCode')) !== '',
        ),
    ],
  ];
  return rules.filter(([, ok]) => !ok).map(([id]) => id);
}

/** An amount in cents (the documents carry at most two decimals). */
const cents = (value: unknown): number => Math.round(Number(text(value) || '0') * 100);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The EN 16931 BR-CO rules, as the CEN Schematron for UBL states them. */
function coRules(invoice: Node, seller: unknown, subtotals: Node[]): [string, boolean][] {
  const lines = list(invoice.InvoiceLine as Node | Node[] | undefined);
  const totals = at(invoice, 'LegalMonetaryTotal');
  const charges = list(invoice.AllowanceCharge as Node | Node[] | undefined);
  const allowances = charges.filter((c) => text(c.ChargeIndicator) === 'false');
  const docCharges = charges.filter((c) => text(c.ChargeIndicator) === 'true');
  const lineCharges = lines.flatMap((l) => list(l.AllowanceCharge as Node | Node[] | undefined));
  const currency = text(invoice.DocumentCurrencyCode);
  const taxTotals = list(invoice.TaxTotal as Node | Node[] | undefined);
  // The VAT total in the document's currency (a second TaxTotal may give it in the tax currency).
  const vatTotal = taxTotals.find((t) => {
    const amount = t.TaxAmount as Node | string | undefined;
    return typeof amount === 'object' ? amount['@_currencyID'] === currency : true;
  });
  const lineNet = sum(lines.map((l) => cents(l.LineExtensionAmount)));
  const allowanceTotal = cents(at(totals, 'AllowanceTotalAmount'));
  const chargeTotal = cents(at(totals, 'ChargeTotalAmount'));
  const taxExclusive = cents(at(totals, 'TaxExclusiveAmount'));
  const taxInclusive = cents(at(totals, 'TaxInclusiveAmount'));
  const payable = cents(at(totals, 'PayableAmount'));
  const vatIds = list(at(seller, 'PartyTaxScheme') as Node | Node[] | undefined)
    .filter((s) => text(at(s, 'TaxScheme', 'ID')).toUpperCase() === 'VAT')
    .map((s) => text(s.CompanyID));
  const hasReason = (c: Node) =>
    text(c.AllowanceChargeReason) !== '' || text(c.AllowanceChargeReasonCode) !== '';
  const period = at(invoice, 'InvoicePeriod') as Node | undefined;
  return [
    ['BR-CO-3', !(text(invoice.TaxPointDate) !== '' && text(at(period, 'DescriptionCode')) !== '')],
    ['BR-CO-4', lines.every((l) => text(at(l, 'Item', 'ClassifiedTaxCategory', 'ID')) !== '')],
    // Seller VAT identifier with an ISO 3166-1 alpha-2 prefix (Greece: EL).
    ['BR-CO-9', vatIds.every((id) => /^[A-Z]{2}/.test(id) && !id.startsWith('GR'))],
    ['BR-CO-10', cents(at(totals, 'LineExtensionAmount')) === lineNet],
    [
      'BR-CO-11',
      at(totals, 'AllowanceTotalAmount') === undefined ||
        allowanceTotal === sum(allowances.map((c) => cents(c.Amount))),
    ],
    [
      'BR-CO-12',
      at(totals, 'ChargeTotalAmount') === undefined ||
        chargeTotal === sum(docCharges.map((c) => cents(c.Amount))),
    ],
    ['BR-CO-13', taxExclusive === lineNet - allowanceTotal + chargeTotal],
    [
      'BR-CO-14',
      vatTotal !== undefined &&
        cents(vatTotal.TaxAmount) === sum(subtotals.map((s) => cents(s.TaxAmount))),
    ],
    ['BR-CO-15', taxInclusive === taxExclusive + cents(vatTotal?.TaxAmount)],
    [
      'BR-CO-16',
      payable ===
        taxInclusive -
          cents(at(totals, 'PrepaidAmount')) +
          cents(at(totals, 'PayableRoundingAmount')),
    ],
    [
      'BR-CO-17',
      subtotals.every(
        (s) =>
          cents(s.TaxAmount) ===
          Math.round(
            (cents(s.TaxableAmount) * Number(text(at(s, 'TaxCategory', 'Percent')) || '0')) / 100,
          ),
      ),
    ],
    ['BR-CO-18', subtotals.length > 0],
    [
      'BR-CO-19',
      period === undefined || text(period.StartDate) !== '' || text(period.EndDate) !== '',
    ],
    [
      'BR-CO-20',
      lines.every((l) => {
        const p = l.InvoicePeriod as Node | undefined;
        return p === undefined || text(p.StartDate) !== '' || text(p.EndDate) !== '';
      }),
    ],
    ['BR-CO-21', allowances.every(hasReason)],
    ['BR-CO-22', docCharges.every(hasReason)],
    ['BR-CO-23', lineCharges.filter((c) => text(c.ChargeIndicator) === 'false').every(hasReason)],
    ['BR-CO-24', lineCharges.filter((c) => text(c.ChargeIndicator) === 'true').every(hasReason)],
    [
      'BR-CO-25',
      payable <= 0 ||
        text(invoice.DueDate) !== '' ||
        list(invoice.PaymentTerms as Node | Node[] | undefined).some((t) => text(t.Note) !== ''),
    ],
    // The seller identifier (BT-29), legal registration identifier (BT-30) or VAT identifier (BT-31).
    [
      'BR-CO-26',
      vatIds.some((id) => id !== '') ||
        list(at(seller, 'PartyIdentification') as Node | Node[] | undefined).some(
          (p) => text(p.ID) !== '',
        ) ||
        text(at(seller, 'PartyLegalEntity', 'CompanyID')) !== '',
    ],
  ];
}
