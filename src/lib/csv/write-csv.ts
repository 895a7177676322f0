/**
 * A CSV writer for spreadsheet downloads: UTF-8 with a byte-order mark (so Excel reads accents and
 * £ correctly), CRLF rows and RFC 4180 quoting. Text cells that a spreadsheet would run as a
 * formula (starting with = + - @, a tab or a carriage return) get a leading apostrophe, the
 * OWASP "CSV injection" defence: a member named `=HYPERLINK(...)` stays text.
 */

export type CsvCell = string | number | boolean | Date | null | undefined;

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => CsvCell;
}

export const CSV_MIME_TYPE = 'text/csv; charset=utf-8';
const BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** Neutralises a text cell a spreadsheet would evaluate. Numbers stay numbers (-5 is not a formula). */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell as CSV text: formatted, neutralised when it is text, quoted when needed. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'boolean') text = value ? 'true' : 'false';
  else if (value instanceof Date) text = Number.isNaN(value.getTime()) ? '' : value.toISOString();
  else text = neutraliseFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole file: BOM, a header row, then one row per item, each line ending in CRLF. */
export function writeCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((c) => csvCell(c.header)), ...rows.map((row) => columns.map((c) => csvCell(c.value(row))))];
  return BOM + lines.map((cells) => `${cells.join(',')}\r\n`).join('');
}
