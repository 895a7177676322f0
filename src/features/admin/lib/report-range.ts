import { TZDate } from '@date-fns/tz';
import { addMonths, endOfMonth, format, parseISO, startOfMonth } from 'date-fns';
import { STUDIO } from '@/config/studio';
import { londonToday } from '@/lib/studio-calendar';

/** A report's London dates, both days included ('YYYY-MM-DD'). */
export type ReportRange = { from: string; to: string };

/** How many past months the month picker offers. */
export const REPORT_MONTHS_OFFERED = 24;

/** The London calendar month 'YYYY-MM' as a range. */
export function monthRange(month: string): ReportRange {
  const first = parseISO(`${month}-01`);
  return { from: format(startOfMonth(first), 'yyyy-MM-dd'), to: format(endOfMonth(first), 'yyyy-MM-dd') };
}

/** This month and the ones before it in London, newest first, as picker options. */
/** This month in London: what Analytics' reports show first. */
export const currentMonthRange = (): ReportRange => monthRange(londonToday().slice(0, 7));

export function recentMonths(now: Date, count = REPORT_MONTHS_OFFERED): { value: string; label: string }[] {
  const current = startOfMonth(new TZDate(now.getTime(), STUDIO.timeZone));
  return Array.from({ length: count }, (_, i) => {
    const month = addMonths(current, -i);
    return { value: format(month, 'yyyy-MM'), label: format(month, 'MMMM yyyy') };
  });
}

/** 'YYYY-MM-DD' (a report row's month) as 'Jan 2026'. */
export const monthLabel = (month: string) => format(parseISO(month), 'MMM yyyy');

export const formatPercent = (rate: number | null) => (rate === null ? '—' : `${rate.toFixed(1)}%`);

/** The product lines of report_revenue, in the portal's words. */
export const REVENUE_LINE_LABELS: Record<string, string> = {
  memberships: 'Memberships by card',
  memberships_direct_debit: 'Memberships by Direct Debit',
  classes: 'Pay-as-you-go classes',
  packages: 'Packages',
  guest_places: 'Guest places',
  hold_fees: 'Membership hold fees',
  attendance_fees: 'Late-cancel and no-show fees',
  vouchers_sold: 'Gift vouchers sold (held for members, not revenue)',
  balance_spent: "Of the lines above, paid from members' balances",
  discounts: 'Discounts given (promo codes, intro offers, referrals)',
};

/**
 * report_revenue's lines that are not revenue (decisions 0100, 0101): a voucher sold is money held
 * until it is spent, the balance spent is already inside the lines it paid for, and a discount is
 * money not taken. Shown in the table, never added to the net revenue or the chart.
 */
export const REVENUE_MEMO_LINES: ReadonlySet<string> = new Set(['vouchers_sold', 'balance_spent', 'discounts']);

export const WEEKDAY_LABELS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
