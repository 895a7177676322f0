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
    // A receipt's places (a family payment's; none for a plan or a single class).
    restGet('family_payment_lines', () => []),
    rpc('my_upgrade_quote', () => upgradeQuoteRow()),
    restGet('credits', () => []),
    ...pauseHandlers(),
    ...offerHandlers(),
    rpc('my_billing', () => billingRow()),
  ];
}

/** No intro offers, and referrals switched off: the offers of /membership render nothing (decisions 0083, 0084). */
export function offerHandlers() {
  return [
    rpc('my_intro_offers', () => []),
    rpc('my_referral', () => ({
      code: 'AB12CD34',
      referred: 0,
      rewarded: 0,
      reward_kind: 'session_credit',
      renewal_amount: 10,
      enabled: false,
    })),
  ];
}

/** `my_billing()` (decision 0076): a member paying by card, no Direct Debit, unless overridden. */
export function billingRow(fields: Record<string, unknown> = {}) {
  return {
    method: 'card',
    mandate_status: null,
    has_card: true,
    collection_status: null,
    collection_charge_date: null,
    collection_amount: null,
    owed: null,
    ...fields,
  };
}

/** `current_pause()` for a membership without a pause: a row of nulls (PostgREST's null row type). */
export const NO_PAUSE = {
  id: null,
  starts_on: null,
  ends_on: null,
  hold_fee: null,
  by_admin: null,
  renewal_before: null,
  renewal_after: null,
  running: null,
};

/** The studio's pause rules row (decision 0050), as the defaults with a £12.50 hold fee. */
export const PAUSE_RULES = {
  id: true,
  members_may_pause: true,
  min_days: 7,
  max_days: 90,
  per_year: 2,
  notice_days: 3,
  hold_fee: 12.5,
  updated_at: '2030-01-01T00:00:00+00:00',
};

/** What the pause controls read: the current pause (none by default) and the rules. */
export function pauseHandlers(pause: JsonBodyType = NO_PAUSE) {
  return [rpc('current_pause', () => pause), restGet('pause_rules', () => [PAUSE_RULES])];
}
