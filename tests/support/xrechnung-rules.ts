import { XMLParser } from 'fast-xml-parser';

/**
 * The XRechnung 3.0 business rules (BR-DE-*) and the EN 16931 basics that can be checked here
 * without the KoSIT validator (its Java jar and scenario files are downloads this project cannot
 * reach). Each rule reads the UBL syntax the way the KoSIT Schematron does, on the element
 * the rule names; the answer is the ids of the rules the document breaks (empty = passes).
 * Not a replacement for the KoSIT validator: no XSD, no code lists, no arithmetic rules.
 */
type Node = Record<string, unknown>;

const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, parseTagValue: false });

const text = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'object' && '#text' in (value as Node)) return String((value as Node)['#text']).trim();
  return '';
};
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const at = (node: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((n, key) => (n && typeof n === 'object' ? (n as Node)[key] : undefined), node);

const ALLOWED_TYPE_CODES = ['326', '380', '384', '389', '381', '875', '876', '877'];
const XRECHNUNG_3 = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';

export function xrechnungRuleViolations(xml: string): string[] {
  const invoice = parser.parse(xml).Invoice as Node | undefined;
  if (!invoice) return ['UBL-root'];
  const seller = at(invoice, 'AccountingSupplierParty', 'Party');
  const buyer = at(invoice, 'AccountingCustomerParty', 'Party');
  const contact = at(seller, 'Contact');
  const means = list(invoice.PaymentMeans as Node | Node[] | undefined);
  const subtotals = list(at(invoice, 'TaxTotal') as Node | Node[] | undefined).flatMap((t) => list(at(t, 'TaxSubtotal') as Node | Node[] | undefined));
  const categories = [
    ...subtotals.map((s) => at(s, 'TaxCategory')),
    ...list(invoice.InvoiceLine as Node | Node[] | undefined).map((l) => at(l, 'Item', 'ClassifiedTaxCategory')),
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
      !categories.some((c) => ['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M'].includes(text(at(c, 'ID')))) ||
        taxSchemes.some((s) => text(at(s, 'CompanyID')) !== ''),
    ],
    ['BR-DE-17', ALLOWED_TYPE_CODES.includes(text(invoice.InvoiceTypeCode))],
    ['BR-DE-21', text(invoice.CustomizationID) === XRECHNUNG_3],
    [
      'BR-DE-23-a',
      means.filter((m) => ['30', '58'].includes(text(m.PaymentMeansCode))).every((m) => text(at(m, 'PayeeFinancialAccount', 'ID')) !== ''),
    ],
    ['BR-DE-26', text(invoice.InvoiceTypeCode) !== '384' || at(invoice, 'BillingReference') !== undefined],
    ['BR-DE-27', (phone.match(/[0-9]/g) ?? []).length >= 3],
    ['BR-DE-28', /^[^@\s]+@[^@\s]+$/.test(email)],
    // EN 16931 / PEPPOL rules that XRechnung 3.0 makes mandatory: both electronic addresses.
    ['PEPPOL-EN16931-R020', text(at(seller, 'EndpointID')) !== ''],
    ['PEPPOL-EN16931-R010', text(at(buyer, 'EndpointID')) !== ''],
    ['BR-6', text(at(seller, 'PartyLegalEntity', 'RegistrationName')) !== ''],
    ['BR-7', text(at(buyer, 'PartyLegalEntity', 'RegistrationName')) !== ''],
    ['BR-16', list(invoice.InvoiceLine as Node | Node[] | undefined).length > 0],
    [
      'BR-E-10',
      subtotals
        .filter((s) => text(at(s, 'TaxCategory', 'ID')) === 'E')
        .every((s) => text(at(s, 'TaxCategory', 'TaxExemptionReason')) !== '' || text(at(s, 'TaxCategory', 'TaxExemptionReasonCode')) !== ''),
    ],
  ];
  return rules.filter(([, ok]) => !ok).map(([id]) => id);
}
