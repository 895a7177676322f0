import Papa from 'papaparse';

/** A CSV file as read: its header row and its records (each the same length as the header). */
export interface CsvTable {
  headers: string[];
  records: string[][];
}

export class CsvReadError extends Error {}

/**
 * Reads a CSV as a spreadsheet program saves it: UTF-8 with or without a byte-order mark, CRLF or
 * LF rows, quoted fields holding commas, line breaks and doubled quotes (papaparse, RFC 4180).
 * Blank lines are skipped; a short row is padded, so a trailing empty cell a program dropped is
 * just empty. Cells are returned as written (trimming is the mapping's job).
 */
export function readCsv(text: string): CsvTable {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const parsed = Papa.parse<string[]>(body, { skipEmptyLines: 'greedy', delimiter: ',' });
  const fatal = parsed.errors.find((e) => e.type === 'Quotes');
  if (fatal) throw new CsvReadError(`Row ${(fatal.row ?? 0) + 1}: a quoted field is never closed.`);
  const [header, ...rows] = parsed.data;
  if (!header || header.every((h) => h.trim() === '')) throw new CsvReadError('The file has no header row.');
  const headers = header.map((h) => h.trim());
  const records = rows.map((r) => headers.map((_, i) => r[i] ?? ''));
  return { headers, records };
}
