import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';

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
const loadFonts = () =>
  (fonts ??= { body: parse('DejaVuSans.ttf'), bold: parse('DejaVuSans-Bold.ttf') });

/** The text column of an A4 page (points). */
export const PAGE_LEFT = 56;
export const PAGE_RIGHT = 539;

/**
 * An A4 document with the fonts `body` and `bold` registered, and the bytes once `pdf.end()`
 * was called. Shared by the invoices and the clinical export.
 */
export function a4Pdf(info: { Title: string; Author?: string }) {
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: PAGE_LEFT, right: 595 - PAGE_RIGHT },
    info,
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
  return { pdf, done };
}
