/** The figures of the Analytics screen (spec section 2), from the `admin_stats` RPC's counts. */
export type AdminStats = {
  total_members: number;
  total_classes: number;
  total_bookings: number;
  upcoming_classes: number;
  premium_members: number;
  standard_members: number;
  payg_members: number;
  bookings_this_month: number;
};

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

export type TierShare = { key: 'premium' | 'standard' | 'payg'; label: string; count: number; percent: number };

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
