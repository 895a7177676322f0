import type { JsonBodyType } from 'msw';
import { restGet, rpc } from './supabase-mocks';

/** `my_membership()` as PostgREST answers for a member who never had a plan: a row of nulls. */
export const NO_MEMBERSHIP = {
  id: null,
  plan_slug: null,
  tier: null,
  status: null,
  price: null,
  period_start: null,
  period_end: null,
  renews: null,
  ended_at: null,
  next_plan_slug: null,
  next_price: null,
  next_retry_at: null,
  has_card: null,
  amount_due: null,
};

/** A renewing Standard membership, as `my_membership()` returns it (override what a test needs). */
export function membershipRow(overrides: Record<string, JsonBodyType> = {}) {
  return {
    id: 'ms-1',
    plan_slug: 'standard',
    tier: 'standard',
    status: 'active',
    price: 100,
    period_start: '2030-02-04T12:00:00+00:00',
    period_end: '2030-03-04T12:00:00+00:00',
    renews: true,
    ended_at: null,
    next_plan_slug: null,
    next_price: null,
    next_retry_at: null,
    has_card: true,
    amount_due: null,
    ...overrides,
  };
}

/**
 * `my_upgrade_quote('platinum')` for membershipRow()'s Standard period (4 February to 4 March 2030,
 * 28 days) asked on 18 February: 14 unused days, £50 off £165.
 */
export function upgradeQuoteRow(overrides: Record<string, JsonBodyType> = {}) {
  return {
    plan_slug: 'platinum',
    plan_price: 165,
    current_plan_slug: 'standard',
    current_price: 100,
    unused_days: 14,
    period_days: 28,
    credit: 50,
    amount: 115,
    ...overrides,
  };
}

/** The membership record and billing history (my_billing_history's lines) /membership reads (decision 0009), and the upgrade's quote. */
export function membershipHandlers(membership: JsonBodyType = NO_MEMBERSHIP, billing: JsonBodyType[] = []) {
  return [
    rpc('my_membership', () => membership),
    rpc('my_billing_history', () => billing),
    rpc('my_upgrade_quote', () => upgradeQuoteRow()),
    restGet('credits', () => []),
  ];
}
