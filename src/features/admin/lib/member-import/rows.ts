import type { CsvTable } from './csv';
import type { ColumnMapping, DateOrder, ImportFieldKey, ImportRow } from './fields';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A date as the file wrote it, as yyyy-mm-dd when it is a real date: 03/04/1990 (day first, or
 * month first for a US export), 3/4/1990, 03-04-1990, 03.04.1990 or 1990-04-03. Anything else,
 * 31/02/1990 included, comes back as written: the database then refuses it with that text.
 */
export function normaliseDate(text: string, order: DateOrder = 'dmy'): string {
  const t = text.trim();
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const local = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (local) {
    const [a, b] = [Number(local[1]), Number(local[2])];
    [d, m] = order === 'dmy' ? [a, b] : [b, a];
    y = Number(local[3]);
  } else return t;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return t;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** '£1,150.50', '70', ' 70.00 ' → '1150.50', '70', '70.00'; anything else as written. */
export function normalisePrice(text: string): string {
  const t = text.trim();
  const m = /^(-?)\s*£?\s*(-?)([0-9][0-9,]*(?:\.[0-9]+)?)$/.exec(t);
  if (!m) return t;
  return `${m[1] || m[2] ? '-' : ''}${m[3]!.replace(/,/g, '')}`;
}

/**
 * A UK phone as typed (07700 900123, +44 7700 900123, +44 (0)7700 900123) is stored as given; a
 * spreadsheet that dropped the leading 0 of a mobile (7700900123) gets it back, and one that wrote
 * +447700900123 as a number keeps its plus.
 */
export function normalisePhone(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  if (/^7\d{9}$/.test(t)) return `0${t}`;
  if (/^447\d{9}$/.test(t)) return `+${t}`;
  return t;
}

const DATE_FIELDS: ReadonlySet<ImportFieldKey> = new Set(['date_of_birth', 'next_payment_date', 'package_expiry']);

/**
 * The file's records as the database function's rows: each mapped column's cell (trimmed) in its
 * field, first and last names joined into the name, dates, prices and phones normalised. Rows with
 * nothing in any mapped column are left out (a spreadsheet's trailing empty rows).
 */
export function toImportRows(table: CsvTable, mapping: ColumnMapping, dateOrder: DateOrder = 'dmy'): ImportRow[] {
  const rows: ImportRow[] = [];
  table.records.forEach((record, index) => {
    const cells: Partial<Record<ImportFieldKey, string>> = {};
    table.headers.forEach((header, i) => {
      const field = mapping[header];
      const cell = (record[i] ?? '').trim();
      if (field && cell !== '' && cells[field] === undefined) cells[field] = cell;
    });
    if (Object.keys(cells).length === 0) return;
    const row: ImportRow = { line: index + 2 };
    const name = cells.name ?? [cells.first_name, cells.last_name].filter(Boolean).join(' ');
    if (name) row.name = name;
    if (cells.email) row.email = cells.email;
    if (cells.guardian_email) row.guardian_email = cells.guardian_email;
    if (cells.phone) row.phone = normalisePhone(cells.phone);
    if (cells.emergency_contact_name) row.emergency_contact_name = cells.emergency_contact_name;
    // Read as the member's own phone is: the database then checks it as Edit Profile does.
    if (cells.emergency_contact_phone) row.emergency_contact_phone = normalisePhone(cells.emergency_contact_phone);
    if (cells.plan) row.plan = cells.plan;
    if (cells.plan_price) row.plan_price = normalisePrice(cells.plan_price);
    if (cells.package_sessions) row.package_sessions = cells.package_sessions;
    for (const key of DATE_FIELDS) {
      const value = cells[key];
      if (value) row[key as 'date_of_birth'] = normaliseDate(value, dateOrder);
    }
    rows.push(row);
  });
  return rows;
}
