import { describe, expect, it } from 'vitest';
import { CsvReadError, readCsv } from './csv';
import { findPreset, mappingFor, rememberedMapping, rememberMapping, templateCsv } from './presets';
import { normaliseDate, normalisePhone, normalisePrice, toImportRows } from './rows';
import { writeCsv } from '@/lib/csv/write-csv';

describe('reading a CSV as a spreadsheet saves it', () => {
  it('takes a BOM, CRLF rows and quoted fields with commas, line breaks and doubled quotes', () => {
    const text = '\uFEFFName,Email,Notes\r\n"Smith, Jo",jo@example.com,"said ""hi""\r\nthen left"\r\n\r\nAmy,amy@example.com,\r\n';
    expect(readCsv(text)).toEqual({
      headers: ['Name', 'Email', 'Notes'],
      records: [
        ['Smith, Jo', 'jo@example.com', 'said "hi"\r\nthen left'],
        ['Amy', 'amy@example.com', ''],
      ],
    });
  });

  it('reads the same without a BOM and with LF rows, and pads a short row', () => {
    expect(readCsv('Name,Email\nJo\n').records).toEqual([['Jo', '']]);
  });

  it('refuses an unclosed quote and a file with no header', () => {
    expect(() => readCsv('Name,Email\n"Jo,jo@example.com\n')).toThrow(CsvReadError);
    expect(() => readCsv('')).toThrow('The file has no header row.');
  });
});

describe('normalising what people type', () => {
  it('reads UK dates day first, US exports month first, and leaves an impossible date as typed', () => {
    expect(normaliseDate('03/04/1990')).toBe('1990-04-03');
    expect(normaliseDate('3/4/1990')).toBe('1990-04-03');
    expect(normaliseDate('03-04-1990')).toBe('1990-04-03');
    expect(normaliseDate('03.04.1990')).toBe('1990-04-03');
    expect(normaliseDate('1990-04-03')).toBe('1990-04-03');
    expect(normaliseDate('04/03/1990', 'mdy')).toBe('1990-04-03');
    expect(normaliseDate('31/02/1990')).toBe('31/02/1990');
    expect(normaliseDate('29/02/2023')).toBe('29/02/2023');
    expect(normaliseDate('29/02/2024')).toBe('2024-02-29');
    expect(normaliseDate('next week')).toBe('next week');
  });

  it('reads prices with a pound sign and thousands, keeping a minus for the database to refuse', () => {
    expect(normalisePrice('£1,150.50')).toBe('1150.50');
    expect(normalisePrice(' 70 ')).toBe('70');
    expect(normalisePrice('-£5')).toBe('-5');
    expect(normalisePrice('£-5.00')).toBe('-5.00');
    expect(normalisePrice('free')).toBe('free');
  });

  it('keeps UK phones as typed and restores what a spreadsheet dropped', () => {
    expect(normalisePhone('07700 900123')).toBe('07700 900123');
    expect(normalisePhone('+44 7700 900123')).toBe('+44 7700 900123');
    expect(normalisePhone('7700900123')).toBe('07700900123');
    expect(normalisePhone('447700900123')).toBe('+447700900123');
  });
});

describe('mapping columns', () => {
  it('maps the template by its headers, and a platform preset by its documented names', () => {
    const template = readCsv(templateCsv());
    const mapping = mappingFor(template.headers);
    expect(Object.values(mapping).sort()).toEqual(
      [
        'date_of_birth',
        'email',
        'emergency_contact_name',
        'emergency_contact_phone',
        'guardian_email',
        'name',
        'next_payment_date',
        'package_expiry',
        'package_sessions',
        'phone',
        'plan',
        'plan_price',
      ].sort(),
    );
    const gympoint = mappingFor(['first_name', 'last_name', 'Email', 'membership_plan', 'barcode'], findPreset('gympoint'));
    expect(gympoint).toEqual({ first_name: 'first_name', last_name: 'last_name', Email: 'email', membership_plan: 'plan' });
  });

  it('maps emergency contact columns by our names or a next-of-kin spelling, reading the phone as a phone', () => {
    const table = readCsv('Email,Next of kin,Emergency phone\r\njo@example.com,Sam Smith,7700900456\r\n');
    const mapping = mappingFor(table.headers);
    expect(mapping).toEqual({ Email: 'email', 'Next of kin': 'emergency_contact_name', 'Emergency phone': 'emergency_contact_phone' });
    expect(toImportRows(table, mapping)).toEqual([
      { line: 2, email: 'jo@example.com', emergency_contact_name: 'Sam Smith', emergency_contact_phone: '07700900456' },
    ]);
  });

  it('guesses our own field names in any case and spacing', () => {
    expect(mappingFor(['E-mail', 'DATE OF BIRTH', 'Shoe size'])).toEqual({ 'E-mail': 'email', 'DATE OF BIRTH': 'date_of_birth' });
  });

  it('is remembered per file layout', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    } as unknown as Storage;
    expect(rememberedMapping(['A', 'B'], storage)).toBeNull();
    rememberMapping(['A', 'B'], { A: 'email' }, storage);
    expect(rememberedMapping(['A', 'B'], storage)).toEqual({ A: 'email' });
    expect(rememberedMapping(['A', 'C'], storage)).toBeNull();
  });
});

describe('rows for the database', () => {
  it('joins first and last names, numbers rows as the spreadsheet does and skips empty ones', () => {
    const table = readCsv(
      'First,Last,Mail,DOB,Plan,Price,Next,Sessions,Expiry,Guardian,Ignored\r\n' +
        'Jo,Smith, JO@Example.com ,14/02/1988,Standard,£70,01/01/2027,5,31/03/2027,,x\r\n' +
        ',,,,,,,,,,only ignored\r\n' +
        'Mia,Smith,,03/09/2016,,,,,,jo@example.com,\r\n',
    );
    const rows = toImportRows(table, {
      First: 'first_name',
      Last: 'last_name',
      Mail: 'email',
      DOB: 'date_of_birth',
      Plan: 'plan',
      Price: 'plan_price',
      Next: 'next_payment_date',
      Sessions: 'package_sessions',
      Expiry: 'package_expiry',
      Guardian: 'guardian_email',
    });
    expect(rows).toEqual([
      {
        line: 2,
        name: 'Jo Smith',
        email: 'JO@Example.com',
        date_of_birth: '1988-02-14',
        plan: 'Standard',
        plan_price: '70',
        next_payment_date: '2027-01-01',
        package_sessions: '5',
        package_expiry: '2027-03-31',
      },
      { line: 4, name: 'Mia Smith', date_of_birth: '2016-09-03', guardian_email: 'jo@example.com' },
    ]);
  });

  it('keeps names as given; the CSV export neutralises a formula and React escapes HTML', () => {
    const rows = toImportRows(readCsv('Name,Email\r\n"=HYPERLINK(""x"")",a@example.com\r\n<b>Bo</b>,b@example.com\r\n'), {
      Name: 'name',
      Email: 'email',
    });
    expect(rows.map((r) => r.name)).toEqual(['=HYPERLINK("x")', '<b>Bo</b>']);
    const exported = writeCsv([{ header: 'Name', value: (r: { name?: string }) => r.name }], rows);
    expect(exported).toContain(`"'=HYPERLINK(""x"")"`);
  });
});
