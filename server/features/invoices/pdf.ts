import { a4Pdf, PAGE_LEFT as LEFT } from '../../pdf';
import type { InvoiceDocument, Practice } from './document';
import { euro, germanDate } from './money';

/** Renders the invoice as an A4 PDF with every § 14 Abs. 4 UStG field. */
export function renderInvoicePdf(doc: InvoiceDocument, practice: Practice): Promise<Buffer> {
  const { pdf, done } = a4Pdf({ Title: `${title(doc)} ${doc.number}`, Author: practice.name });

  pdf.font('bold').fontSize(14).text(practice.name, LEFT, 56);
  pdf.font('body').fontSize(9);
  pdf.text(`${practice.street}, ${practice.postalCode} ${practice.city}`);
  pdf.text(
    [
      practice.taxNumber ? `Steuernummer: ${practice.taxNumber}` : '',
      practice.vatId ? `USt-IdNr.: ${practice.vatId}` : '',
      practice.registerNumber
        ? `${practice.registerCourt ?? 'Register'} ${practice.registerNumber}`
        : '',
    ]
      .filter(Boolean)
      .join(' · '),
  );
  pdf.text(`E-Mail: ${practice.email}`);

  const r = doc.recipient;
  pdf.fontSize(10).text(r.name, LEFT, 150);
  if (r.street) pdf.text(r.street);
  if (r.postalCode || r.city) pdf.text(`${r.postalCode ?? ''} ${r.city ?? ''}`.trim());
  if (r.reference) pdf.text(`Referenz: ${r.reference}`);

  pdf
    .font('bold')
    .fontSize(14)
    .text(`${title(doc)} ${doc.number}`, LEFT, 250);
  pdf.font('body').fontSize(10);
  pdf.text(`Rechnungsdatum: ${germanDate(doc.invoiceDate)}`);
  pdf.text(`Leistungszeitraum: ${germanDate(doc.serviceFrom)} – ${germanDate(doc.serviceTo)}`);
  if (doc.cancels) {
    pdf.text(
      `Storno zur Rechnung ${doc.cancels.number} vom ${germanDate(doc.cancels.invoiceDate)}`,
    );
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
      pdf.text(
        `Steuerfrei: ${euro(group.netCents)} netto, 0,00 € USt – ${group.vatExemptionReason ?? ''}`,
        LEFT,
      );
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

const title = (doc: InvoiceDocument) =>
  doc.kind === 'cancellation' ? 'Stornorechnung' : 'Rechnung';

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
