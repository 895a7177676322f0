import { formatPounds } from '@/config/plans';
import type { CsvColumn } from '@/lib/csv/write-csv';
import { formatInLondon } from '@/lib/studio-calendar';

/** A class on a pay statement (`coach_pay_line`): the class, who was checked in, the rate then and what it pays. */
export type PayLine = {
  classId: string;
  className: string;
  classType: string;
  startTime: string;
  attendees: number;
  basis: PayBasis | null;
  baseAmount: number | null;
  perAttendee: number | null;
  /** Null when no rate applied to the class (the admin sets one; it pays nothing meanwhile). */
  amount: number | null;
};

export const PAY_BASES = ['per_class', 'per_attendee', 'base_plus_attendee'] as const;
export type PayBasis = (typeof PAY_BASES)[number];

export const PAY_BASIS_LABELS: Record<PayBasis, string> = {
  per_class: 'Per class',
  per_attendee: 'Per attendee',
  base_plus_attendee: 'Base plus per attendee',
};

/** "£25.00 a class", "£3.00 an attendee", "£20.00 + £2.00 an attendee", or "No rate set". */
export function rateText(line: Pick<PayLine, 'basis' | 'baseAmount' | 'perAttendee'>): string {
  const base = formatPounds(line.baseAmount ?? 0);
  const each = formatPounds(line.perAttendee ?? 0);
  switch (line.basis) {
    case 'per_class':
      return `${base} a class`;
    case 'per_attendee':
      return `${each} an attendee`;
    case 'base_plus_attendee':
      return `${base} + ${each} an attendee`;
    default:
      return 'No rate set';
  }
}

/** The statement's totals: classes taught, people checked in, the pay, and how many classes had no rate. */
export function payTotals(lines: readonly PayLine[]) {
  return {
    classes: lines.length,
    attendees: lines.reduce((n, l) => n + l.attendees, 0),
    // In pence, so £0.10 + £0.20 is £0.30.
    total: lines.reduce((pence, l) => pence + Math.round((l.amount ?? 0) * 100), 0) / 100,
    withoutRate: lines.filter((l) => l.amount === null).length,
  };
}

/** The statement as a spreadsheet: one row per class, London time. */
export const PAY_CSV_COLUMNS: readonly CsvColumn<PayLine>[] = [
  { header: 'Class', value: (l) => l.className },
  { header: 'Type', value: (l) => l.classType },
  { header: 'Date & Time (London)', value: (l) => formatInLondon(l.startTime, 'yyyy-MM-dd HH:mm') },
  { header: 'Checked in', value: (l) => l.attendees },
  { header: 'Rate', value: (l) => rateText(l) },
  { header: 'Pay (GBP)', value: (l) => (l.amount === null ? '' : l.amount.toFixed(2)) },
];

/** '2026-11' → 'November 2026'. */
export function monthLabel(month: string): string {
  return formatInLondon(`${month}-15T12:00:00Z`, 'MMMM yyyy');
}

/** This London month as 'YYYY-MM'. */
export function currentMonth(now: Date = new Date()): string {
  return formatInLondon(now, 'yyyy-MM');
}
