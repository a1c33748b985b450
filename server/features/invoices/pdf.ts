import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { InvoiceDocument, Practice } from './document';
import { euro, germanDate } from './money';

// DejaVu Sans (free licence, npm dejavu-fonts-ttf) is embedded as a subset: umlauts, ß and €
// print in any viewer, which the 14 standard PDF fonts do not guarantee.
// Parsed once (fontkit, the parser pdfkit itself uses) and shared by every document: parsing
// the TTF per PDF cost more than the rest of the document. Each PDF still embeds its subset.
const require = createRequire(import.meta.url);
const parse = (file: string) =>
  fontkit.create(
    readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)),
  ) as PDFKit.Mixins.PDFFontSource;
let fonts: { body: PDFKit.Mixins.PDFFontSource; bold: PDFKit.Mixins.PDFFontSource } | undefined;
const loadFonts = () => (fonts ??= { body: parse('DejaVuSans.ttf'), bold: parse('DejaVuSans-Bold.ttf') });

const LEFT = 56;
const RIGHT = 539;

/** Renders the invoice as an A4 PDF with every § 14 Abs. 4 UStG field. */
export function renderInvoicePdf(doc: InvoiceDocument, practice: Practice): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: LEFT, right: 595 - RIGHT },
    info: { Title: `${title(doc)} ${doc.number}`, Author: practice.name },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const { body, bold } = loadFonts();
  pdf.registerFont('body', body);
  pdf.registerFont('bold', bold);

  pdf.font('bold').fontSize(14).text(practice.name, LEFT, 56);
  pdf.font('body').fontSize(9);
  pdf.text(`${practice.street}, ${practice.postalCode} ${practice.city}`);
  pdf.text(`Steuernummer: ${practice.taxNumber}${practice.vatId ? ` · USt-IdNr.: ${practice.vatId}` : ''}`);
  pdf.text(`E-Mail: ${practice.email}`);

  const r = doc.recipient;
  pdf.fontSize(10).text(r.name, LEFT, 150);
  if (r.street) pdf.text(r.street);
  if (r.postalCode || r.city) pdf.text(`${r.postalCode ?? ''} ${r.city ?? ''}`.trim());
  if (r.reference) pdf.text(`Referenz: ${r.reference}`);

  pdf.font('bold').fontSize(14).text(`${title(doc)} ${doc.number}`, LEFT, 250);
  pdf.font('body').fontSize(10);
  pdf.text(`Rechnungsdatum: ${germanDate(doc.invoiceDate)}`);
  pdf.text(`Leistungszeitraum: ${germanDate(doc.serviceFrom)} – ${germanDate(doc.serviceTo)}`);
  if (doc.cancels) {
    pdf.text(`Storno zur Rechnung ${doc.cancels.number} vom ${germanDate(doc.cancels.invoiceDate)}`);
    if (doc.cancellationReason) pdf.text(`Grund: ${doc.cancellationReason}`);
  }

  pdf.moveDown();
  row(pdf, ['Datum', 'Leistung', 'USt', 'Netto', 'Brutto'], true);
  for (const line of doc.lines) {
    row(pdf, [
      germanDate(line.serviceDate),
      line.description,
      line.vatTreatment === 'exempt' ? 'frei' : `${line.vatRatePercent} %`,
      euro(line.netCents),
      euro(line.grossCents),
    ]);
  }
  pdf.moveDown();
  for (const group of doc.vatGroups) {
    if (group.vatTreatment === 'exempt') {
      pdf.text(`Steuerfrei: ${euro(group.netCents)} netto, 0,00 € USt – ${group.vatExemptionReason ?? ''}`, LEFT);
    } else {
      pdf.text(
        `${group.vatRatePercent} % USt: ${euro(group.netCents)} netto, ${euro(group.vatCents)} USt, ${euro(group.grossCents)} brutto`,
        LEFT,
      );
    }
  }
  pdf.moveDown(0.5);
  pdf.text(`Summe netto: ${euro(doc.netCents)}`, LEFT);
  pdf.text(`Umsatzsteuer: ${euro(doc.vatCents)}`, LEFT);
  pdf.font('bold').text(`Gesamtbetrag: ${euro(doc.grossCents)}`, LEFT);
  pdf.font('body').moveDown();
  if (doc.kind === 'invoice') {
    pdf.text(
      `Bitte überweisen Sie den Betrag bis zum ${germanDate(doc.dueDate)} auf IBAN ${practice.iban} unter Angabe der Rechnungsnummer ${doc.number}.`,
      LEFT,
    );
  }
  pdf.end();
  return done;
}

const title = (doc: InvoiceDocument) => (doc.kind === 'cancellation' ? 'Stornorechnung' : 'Rechnung');

const COLUMNS = [
  { x: LEFT, width: 62, align: 'left' },
  { x: LEFT + 66, width: 230, align: 'left' },
  { x: LEFT + 300, width: 40, align: 'right' },
  { x: LEFT + 344, width: 68, align: 'right' },
  { x: LEFT + 415, width: 68, align: 'right' },
] as const;

function row(pdf: PDFKit.PDFDocument, cells: string[], bold = false) {
  if (pdf.y > 760) pdf.addPage();
  const y = pdf.y;
  pdf.font(bold ? 'bold' : 'body').fontSize(9);
  let bottom = y;
  cells.forEach((text, i) => {
    const column = COLUMNS[i]!;
    pdf.text(text, column.x, y, { width: column.width, align: column.align });
    bottom = Math.max(bottom, pdf.y);
  });
  pdf.font('body').fontSize(10);
  pdf.x = LEFT;
  pdf.y = bottom + 2;
}
