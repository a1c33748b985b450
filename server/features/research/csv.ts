import { stringify } from 'csv-stringify/sync';

export type Cell = string | number | boolean | null;

/** A text cell a spreadsheet would read as a formula gets a leading apostrophe (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;
export const escapeFormula = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

const cellText = (cell: Cell): string | number => {
  if (cell === null) return '';
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  // Numbers are written as numbers: a negative day offset stays -3.
  if (typeof cell === 'number') return cell;
  return escapeFormula(cell);
};

/** Rows as RFC 4180 CSV: CRLF line ends, quotes where a cell needs them. */
export const csvRows = (rows: readonly (readonly Cell[])[]): string =>
  rows.length === 0
    ? ''
    : stringify(
        rows.map((r) => r.map(cellText)),
        { record_delimiter: 'windows' },
      );
