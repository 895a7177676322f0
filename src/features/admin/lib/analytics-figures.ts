import type { AdminStats, WeeklyStat } from '../api/get-admin-stats';
import type { DisplayTier } from './membership-tier';

export type { AdminStats, WeeklyStat };

/** A week's row as the chart shows it: whole percents (0 decimals), null when there is nothing to rate. */
export type WeekFigures = {
  weekStart: string;
  fillPercent: number | null;
  attendancePercent: number | null;
  bookings: number;
  capacity: number;
  marked: number;
};

export function weeklyFigures(weeks: readonly WeeklyStat[]): WeekFigures[] {
  const percent = (rate: number | null) => (rate === null ? null : Math.round(rate * 100));
  return weeks.map((w) => ({
    weekStart: w.week_start,
    fillPercent: percent(w.fill_rate),
    attendancePercent: percent(w.attendance_rate),
    bookings: w.bookings,
    capacity: w.capacity,
    marked: w.attended + w.no_show,
  }));
}

/** Averages show one decimal, and 0 when the divisor is 0. */
export function formatAverage(total: number, divisor: number): string {
  if (!divisor) return '0';
  return (total / divisor).toFixed(1);
}

/** A share as a whole percent (0 decimals), 0 when there is nothing to share. */
export function percentOf(part: number, whole: number): number {
  if (!whole) return 0;
  return Math.round((part / whole) * 100);
}

export type TierShare = { key: DisplayTier; label: string; count: number; percent: number };

export function membershipDistribution(stats: AdminStats): TierShare[] {
  const rows = [
    { key: 'premium', label: 'Premium', count: stats.premium_members },
    { key: 'standard', label: 'Standard', count: stats.standard_members },
    { key: 'payg', label: 'Pay as You Go', count: stats.payg_members },
  ] as const;
  return rows.map((row) => ({ ...row, percent: percentOf(row.count, stats.total_members) }));
}

export function analyticsFigures(stats: AdminStats) {
  return {
    averagePerMemberThisMonth: formatAverage(stats.bookings_this_month, stats.total_members),
    avgBookingsPerClass: formatAverage(stats.total_bookings, stats.total_classes),
    premiumPercent: percentOf(stats.premium_members, stats.total_members),
    bookingsPerMember: formatAverage(stats.total_bookings, stats.total_members),
  };
}
