import type { JsonBodyType } from 'msw';
import { restGet, rpc } from './supabase-mocks';

/** `my_membership()` as PostgREST answers for a member who never had a plan: a row of nulls. */
export const NO_MEMBERSHIP = {
  id: null, plan_slug: null, tier: null, status: null, price: null, period_start: null, period_end: null, renews: null,
  ended_at: null, next_plan_slug: null, next_price: null, next_retry_at: null, has_card: null, amount_due: null,
};

/** A renewing Standard membership, as `my_membership()` returns it (override what a test needs). */
export function membershipRow(overrides: Record<string, JsonBodyType> = {}) {
  return {
    id: 'ms-1', plan_slug: 'standard', tier: 'standard', status: 'active', price: 100, period_start: '2030-02-04T12:00:00+00:00',
    period_end: '2030-03-04T12:00:00+00:00', renews: true, ended_at: null, next_plan_slug: null, next_price: null,
    next_retry_at: null, has_card: true, amount_due: null, ...overrides,
  };
}

/** The membership record and billing history /membership reads (issue 13). */
export function membershipHandlers(membership: JsonBodyType = NO_MEMBERSHIP, payments: JsonBodyType[] = []) {
  return [rpc('my_membership', () => membership), restGet('payments', () => payments)];
}
