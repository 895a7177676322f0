import { describe, expect, it } from 'vitest';
import { csvCell, writeCsv, type CsvColumn } from './write-csv';

type Member = { name: string; email: string; bookings: number; joined: Date | null };
const columns: CsvColumn<Member>[] = [
  { header: 'Name', value: (m) => m.name },
  { header: 'Email', value: (m) => m.email },
  { header: 'Total Bookings', value: (m) => m.bookings },
  { header: 'Joined', value: (m) => m.joined },
];

/** A minimal RFC 4180 reader, to prove the writer's output reads back to the same cells. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += ch;
  }
  return rows;
}

describe('writeCsv', () => {
  it('starts with a UTF-8 BOM, ends rows with CRLF and keeps non-ASCII text', () => {
    const csv = writeCsv(columns, [
      { name: 'Zoë Brontë', email: 'zoe@example.test', bookings: 3, joined: new Date('2025-01-02T03:04:05Z') },
    ]);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toBe('\uFEFFName,Email,Total Bookings,Joined\r\nZoë Brontë,zoe@example.test,3,2025-01-02T03:04:05.000Z\r\n');
    expect([...new TextEncoder().encode(csv).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('quotes commas, quotes and newlines so they read back as the same cells', () => {
    const tricky = { name: 'Smith, "Jo"\nline two', email: 'a@b.test', bookings: 0, joined: null };
    const csv = writeCsv(columns, [tricky]);
    expect(csv).toContain('"Smith, ""Jo""\nline two"');
    expect(readCsv(csv.slice(1))).toEqual([
      ['Name', 'Email', 'Total Bookings', 'Joined'],
      ['Smith, "Jo"\nline two', 'a@b.test', '0', ''],
    ]);
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    const cells = ['=HYPERLINK("http://evil.test","x")', '+44 7700', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd', 'safe = text'];
    expect(cells.map(csvCell)).toEqual([
      `"'=HYPERLINK(""http://evil.test"",""x"")"`,
      "'+44 7700",
      "'-2+3",
      "'@SUM(A1)",
      "'\tcmd",
      `"'\rcmd"`,
      'safe = text',
    ]);
  });

  it('writes numbers, booleans and empty values plainly', () => {
    expect([
      csvCell(-5),
      csvCell(2.5),
      csvCell(true),
      csvCell(null),
      csvCell(undefined),
      csvCell(Number.NaN),
      csvCell(new Date('x')),
    ]).toEqual(['-5', '2.5', 'true', '', '', '', '']);
  });

  it('quotes cells with leading or trailing spaces so they survive', () => {
    expect(csvCell(' padded ')).toBe('" padded "');
  });
});
