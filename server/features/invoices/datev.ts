import iconv from 'iconv-lite';
import type { Config } from '../../config';
import type { InvoiceRow } from './issue';

type Row = Pick<InvoiceRow, 'number' | 'kind' | 'invoiceDate' | 'recipient' | 'vatGroups'>;

const text = (value: string) => `"${value.replace(/"/g, '""')}"`;
const amount = (cents: number) => {
  const abs = Math.abs(cents);
  return `${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
};
const compact = (iso: string) => iso.replaceAll('-', '');

export const DATEV_COLUMNS = [
  'Umsatz (ohne Soll/Haben-Kz)',
  'Soll/Haben-Kennzeichen',
  'WKZ Umsatz',
  'Kurs',
  'Basis-Umsatz',
  'WKZ Basis-Umsatz',
  'Konto',
  'Gegenkonto (ohne BU-Schlüssel)',
  'BU-Schlüssel',
  'Belegdatum',
  'Belegfeld 1',
  'Belegfeld 2',
  'Skonto',
  'Buchungstext',
];

/**
 * DATEV "Buchungsstapel" (EXTF 700, category 21, version 13): one booking per invoice and VAT
 * group, debtor account against the revenue account of the treatment (automatic accounts, so
 * no BU key); invoices book S, cancellation invoices H. windows-1252, `;`, CRLF, decimal comma.
 */
export function datevBuchungsstapel(
  rows: readonly Row[],
  config: Pick<
    Config,
    | 'DATEV_CONSULTANT_NUMBER'
    | 'DATEV_CLIENT_NUMBER'
    | 'DATEV_DEBTOR_ACCOUNT'
    | 'DATEV_REVENUE_ACCOUNT_STANDARD'
    | 'DATEV_REVENUE_ACCOUNT_EXEMPT'
  >,
  range: { fromDate: string; toDate: string },
  now: Date,
): Buffer {
  const created = now
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 17);
  const header = [
    text('EXTF'),
    '700',
    '21',
    text('Buchungsstapel'),
    '13',
    created,
    '',
    text('SS'),
    text(''),
    text(''),
    String(config.DATEV_CONSULTANT_NUMBER),
    String(config.DATEV_CLIENT_NUMBER),
    `${range.fromDate.slice(0, 4)}0101`,
    '4',
    compact(range.fromDate),
    compact(range.toDate),
    text('Rechnungen'),
    text(''),
    '1',
    '0',
    '0',
    text('EUR'),
  ];
  const lines = [header.join(';'), DATEV_COLUMNS.join(';')];
  for (const row of rows) {
    for (const group of row.vatGroups) {
      if (group.grossCents === 0) continue;
      const account =
        group.vatTreatment === 'exempt'
          ? config.DATEV_REVENUE_ACCOUNT_EXEMPT
          : config.DATEV_REVENUE_ACCOUNT_STANDARD;
      lines.push(
        [
          amount(group.grossCents),
          text(group.grossCents < 0 ? 'H' : 'S'),
          text('EUR'),
          '',
          '',
          '',
          String(config.DATEV_DEBTOR_ACCOUNT),
          String(account),
          '',
          `${row.invoiceDate.slice(8, 10)}${row.invoiceDate.slice(5, 7)}`,
          text(row.number),
          text(''),
          '',
          text(`${row.kind === 'cancellation' ? 'Storno ' : ''}${row.recipient.name}`.slice(0, 60)),
        ].join(';'),
      );
    }
  }
  return iconv.encode(`${lines.join('\r\n')}\r\n`, 'win1252');
}
