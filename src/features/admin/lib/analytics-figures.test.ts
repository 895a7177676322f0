import { describe, expect, it } from 'vitest';
import { analyticsFigures, formatAverage, membershipDistribution, percentOf, type AdminStats } from './analytics-figures';

const stats: AdminStats = {
  total_members: 7,
  total_classes: 3,
  total_bookings: 10,
  upcoming_classes: 2,
  premium_members: 2,
  standard_members: 1,
  payg_members: 4,
  bookings_this_month: 5,
  weekly: [],
};

describe('formatAverage', () => {
  it('shows one decimal', () => {
    expect(formatAverage(10, 3)).toBe('3.3');
    expect(formatAverage(10, 4)).toBe('2.5');
    expect(formatAverage(4, 2)).toBe('2.0');
  });
  it('shows 0 when the divisor is 0', () => {
    expect(formatAverage(5, 0)).toBe('0');
  });
});

describe('percentOf', () => {
  it('rounds to a whole percent and is 0 with nothing to share', () => {
    expect(percentOf(2, 7)).toBe(29);
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(3, 0)).toBe(0);
  });
});

describe('analytics figures', () => {
  it('computes the insights and the distribution from the counts', () => {
    expect(analyticsFigures(stats)).toEqual({
      averagePerMemberThisMonth: '0.7',
      avgBookingsPerClass: '3.3',
      premiumPercent: 29,
      bookingsPerMember: '1.4',
    });
    expect(membershipDistribution(stats)).toEqual([
      { key: 'premium', label: 'Premium', count: 2, percent: 29 },
      { key: 'standard', label: 'Standard', count: 1, percent: 14 },
      { key: 'payg', label: 'Pay as You Go', count: 4, percent: 57 },
    ]);
  });
  it('shows zeros for an empty studio', () => {
    const empty = {
      ...stats,
      total_members: 0,
      total_classes: 0,
      total_bookings: 0,
      premium_members: 0,
      standard_members: 0,
      payg_members: 0,
      bookings_this_month: 0,
    };
    expect(analyticsFigures(empty)).toEqual({
      averagePerMemberThisMonth: '0',
      avgBookingsPerClass: '0',
      premiumPercent: 0,
      bookingsPerMember: '0',
    });
  });
});
