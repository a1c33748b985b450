import { InvoiceService, type Invoice } from '@e-invoice-eu/core';
import { requireSellerIdentifier, type InvoiceDocument, type Practice } from './document';
import { decimal } from './money';

const EUR = { '@currencyID': 'EUR' } as const;
const money = (cents: number) => decimal(cents);

/** The library's log goes nowhere: it would only repeat what the thrown error says. */
const quiet = { log() {}, warn() {}, error() {} };
const service = new InvoiceService(quiet);

const address = (
  street: string | null,
  postalCode: string | null,
  city: string | null,
  country: string,
) => ({
  ...(street ? { 'cbc:StreetName': street } : {}),
  'cbc:CityName': city ?? '',
  'cbc:PostalZone': postalCode ?? '',
  'cac:Country': { 'cbc:IdentificationCode': country },
});

const taxCategory = (treatment: 'standard' | 'exempt', rate: number) => ({
  'cbc:ID': treatment === 'exempt' ? 'E' : 'S',
  'cbc:Percent': String(rate),
  'cac:TaxScheme': { 'cbc:ID': 'VAT' },
});

/**
 * The invoice as XRechnung 3.0 (UBL syntax), built by @e-invoice-eu/core from its UBL-shaped
 * input. A cancellation invoice is type 384 (corrected invoice) with the cancelled invoice as
 * billing reference and negative quantities, so prices stay positive (BR-27).
 */
export async function renderXRechnung(doc: InvoiceDocument, practice: Practice): Promise<string> {
  requireSellerIdentifier(practice);
  const r = doc.recipient;
  const sign = doc.kind === 'cancellation' ? -1 : 1;
  const data = {
    'ubl:Invoice': {
      'cbc:CustomizationID':
        'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
      'cbc:ProfileID': 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
      'cbc:ID': doc.number,
      'cbc:IssueDate': doc.invoiceDate,
      ...(doc.kind === 'invoice' ? { 'cbc:DueDate': doc.dueDate } : {}),
      'cbc:InvoiceTypeCode': doc.kind === 'cancellation' ? '384' : '380',
      ...(doc.cancellationReason ? { 'cbc:Note': [doc.cancellationReason] } : {}),
      'cbc:DocumentCurrencyCode': 'EUR',
      'cbc:BuyerReference': r.reference ?? doc.number,
      'cac:InvoicePeriod': { 'cbc:StartDate': doc.serviceFrom, 'cbc:EndDate': doc.serviceTo },
      ...(doc.cancels
        ? {
            'cac:BillingReference': [
              {
                'cac:InvoiceDocumentReference': {
                  'cbc:ID': doc.cancels.number,
                  'cbc:IssueDate': doc.cancels.invoiceDate,
                },
              },
            ],
          }
        : {}),
      'cac:AccountingSupplierParty': {
        'cac:Party': {
          'cbc:EndpointID': practice.email,
          'cbc:EndpointID@schemeID': 'EM',
          'cac:PostalAddress': address(practice.street, practice.postalCode, practice.city, 'DE'),
          // BT-31 (VAT identifier) and BT-32 (tax number), as far as the practice has them.
          'cac:PartyTaxScheme': [
            ...(practice.vatId
              ? [{ 'cbc:CompanyID': practice.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }]
              : []),
            ...(practice.taxNumber
              ? [{ 'cbc:CompanyID': practice.taxNumber, 'cac:TaxScheme': { 'cbc:ID': 'FC' } }]
              : []),
          ],
          // BT-30, the register number, with its court as additional legal information (BT-33).
          'cac:PartyLegalEntity': {
            'cbc:RegistrationName': practice.name,
            ...(practice.registerNumber ? { 'cbc:CompanyID': practice.registerNumber } : {}),
            ...(practice.registerCourt
              ? { 'cbc:CompanyLegalForm': `Registergericht: ${practice.registerCourt}` }
              : {}),
          },
          'cac:Contact': {
            'cbc:Name': practice.name,
            'cbc:Telephone': practice.phone,
            'cbc:ElectronicMail': practice.email,
          },
        },
      },
      'cac:AccountingCustomerParty': {
        'cac:Party': {
          ...(r.email ? { 'cbc:EndpointID': r.email, 'cbc:EndpointID@schemeID': 'EM' } : {}),
          'cac:PostalAddress': address(r.street, r.postalCode, r.city, r.country),
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': r.name },
        },
      },
      'cac:PaymentMeans': [
        { 'cbc:PaymentMeansCode': '58', 'cac:PayeeFinancialAccount': { 'cbc:ID': practice.iban } },
      ],
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': money(doc.vatCents),
          'cbc:TaxAmount@currencyID': 'EUR',
          'cac:TaxSubtotal': doc.vatGroups.map((g) => ({
            'cbc:TaxableAmount': money(g.netCents),
            'cbc:TaxableAmount@currencyID': 'EUR',
            'cbc:TaxAmount': money(g.vatCents),
            'cbc:TaxAmount@currencyID': 'EUR',
            'cac:TaxCategory': {
              ...taxCategory(g.vatTreatment, g.vatRatePercent),
              ...(g.vatExemptionReason ? { 'cbc:TaxExemptionReason': g.vatExemptionReason } : {}),
            },
          })),
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': money(doc.netCents),
        'cbc:LineExtensionAmount@currencyID': EUR['@currencyID'],
        'cbc:TaxExclusiveAmount': money(doc.netCents),
        'cbc:TaxExclusiveAmount@currencyID': 'EUR',
        'cbc:TaxInclusiveAmount': money(doc.grossCents),
        'cbc:TaxInclusiveAmount@currencyID': 'EUR',
        'cbc:PayableAmount': money(doc.grossCents),
        'cbc:PayableAmount@currencyID': 'EUR',
      },
      'cac:InvoiceLine': doc.lines.map((line, i) => ({
        'cbc:ID': String(i + 1),
        'cbc:InvoicedQuantity': String(sign),
        'cbc:InvoicedQuantity@unitCode': 'C62',
        'cbc:LineExtensionAmount': money(line.netCents),
        'cbc:LineExtensionAmount@currencyID': 'EUR',
        'cac:InvoicePeriod': { 'cbc:StartDate': line.serviceDate, 'cbc:EndDate': line.serviceDate },
        'cac:Item': {
          'cbc:Name': line.description,
          'cac:ClassifiedTaxCategory': taxCategory(line.vatTreatment, line.vatRatePercent),
        },
        'cac:Price': {
          'cbc:PriceAmount': money(Math.abs(line.netCents)),
          'cbc:PriceAmount@currencyID': 'EUR',
        },
      })),
    },
  } as unknown as Invoice;
  const xml = await service.generate(data, { format: 'XRECHNUNG-UBL', lang: 'de-de' });
  return typeof xml === 'string' ? xml : Buffer.from(xml).toString('utf8');
}
