import { describe, expect, it } from 'vitest';
import { writeCsv } from '@/lib/csv/write-csv';
import { monthLabel, PAY_CSV_COLUMNS, payTotals, rateText, type PayLine } from './pay-lines';

const line = (over: Partial<PayLine>): PayLine => ({
  classId: 'c',
  className: 'Bootcamp',
  classType: 'Group',
  startTime: '2026-10-03T08:00:00Z',
  attendees: 0,
  basis: 'per_class',
  baseAmount: 25,
  perAttendee: 0,
  amount: 25,
  ...over,
});

describe('pay statements', () => {
  it('totals the classes, the people checked in and the pay to the penny, and counts classes without a rate', () => {
    const lines = [
      line({ attendees: 4, amount: 28.1 }),
      line({ classId: 'd', attendees: 1, amount: 22.2 }),
      line({ classId: 'e', attendees: 3, basis: null, amount: null }),
    ];
    expect(payTotals(lines)).toEqual({ classes: 3, attendees: 8, total: 50.3, withoutRate: 1 });
  });

  it('says each rate in words', () => {
    expect(rateText(line({}))).toBe('£25.00 a class');
    expect(rateText(line({ basis: 'per_attendee', baseAmount: 0, perAttendee: 3 }))).toBe('£3.00 an attendee');
    expect(rateText(line({ basis: 'base_plus_attendee', baseAmount: 20, perAttendee: 2 }))).toBe('£20.00 + £2.00 an attendee');
    expect(rateText(line({ basis: null }))).toBe('No rate set');
  });

  it('writes one CSV row per class in London time, pay blank where no rate applied', () => {
    const csv = writeCsv(PAY_CSV_COLUMNS, [line({ attendees: 2 }), line({ classId: 'x', basis: null, amount: null })]);
    const rows = csv.replace('\uFEFF', '').trim().split('\r\n');
    expect(rows[0]).toBe('Class,Type,Date & Time (London),Checked in,Rate,Pay (GBP)');
    expect(rows[1]).toBe('Bootcamp,Group,2026-10-03 09:00,2,£25.00 a class,25.00');
    expect(rows[2]).toBe('Bootcamp,Group,2026-10-03 09:00,0,No rate set,');
    expect(monthLabel('2026-10')).toBe('October 2026');
  });
});
