import { formatPounds } from '@/config/plans';
import { describe, expect, it } from 'vitest';
import { formatLondonDate } from '@/lib/studio-calendar';
import { isRunningPlan, type MyMembership } from './membership-view';

const base: MyMembership = {
  id: 'm',
  plan_slug: 'standard',
  tier: 'standard',
  status: 'active',
  price: 100,
  period_start: '2027-01-15T10:00:00Z',
  period_end: '2027-02-15T10:00:00Z',
  renews: true,
  ended_at: null,
  next_plan_slug: null,
  next_price: null,
  next_retry_at: null,
  has_card: true,
  amount_due: null,
};

describe('membership view', () => {
  it('a plan runs while active, past due or cancelled before its end', () => {
    expect(isRunningPlan(base)).toBe(true);
    expect(isRunningPlan({ ...base, status: 'cancelled' })).toBe(true);
    expect(isRunningPlan({ ...base, status: 'cancelled', ended_at: '2027-02-15T10:00:00Z' })).toBe(false);
    expect(isRunningPlan({ ...base, status: 'trialing' })).toBe(false);
    expect(isRunningPlan(null)).toBe(false);
  });

  it('formats dates in London and money in GBP with pence', () => {
    expect(formatLondonDate('2027-03-31T23:30:00Z')).toBe('1 April 2027');
    expect(formatPounds(100)).toBe('£100.00');
    expect(formatPounds(115.5)).toBe('£115.50');
  });
});
