import type { PlanSlug } from '@/config/plans';
import type { CompositeRow } from '@/lib/composite-row';
import { MEMBERSHIP_STATUS_LABELS } from '@/lib/rules/membership-status';
import { formatLondonDate } from '@/lib/studio-calendar';

/** The plans a membership can be on (memberships.plan_slug and next_plan_slug, by their check constraints). */
export type MembershipPlanSlug = Extract<PlanSlug, 'standard' | 'platinum' | 'student'>;

/** The fields `my_membership()` always sets when the caller has a membership. */
export type MyMembershipSetFields = 'id' | 'tier' | 'status' | 'period_start' | 'period_end' | 'renews' | 'has_card';

/** The caller's membership as `my_membership()` returns it (decision 0009), when there is one. */
export type MyMembership = Omit<CompositeRow<'my_membership', MyMembershipSetFields>, 'plan_slug' | 'next_plan_slug'> & {
  plan_slug: MembershipPlanSlug | null;
  next_plan_slug: MembershipPlanSlug | null;
};

/** A plan membership that still gives access (renewing, past due, or cancelled before its end). */
export function isRunningPlan(m: MyMembership | null | undefined): m is MyMembership {
  return !!m && m.ended_at === null && (m.status === 'active' || m.status === 'past_due' || m.status === 'cancelled');
}

/**
 * The Status a member reads for a running plan. A cancelled plan still runs to its period end, so
 * it says "Ends on <date>", not "Cancelled"; a plan the studio set up that waits for a
 * card has not failed a payment.
 */
export function runningStatusText(m: MyMembership): string {
  if (m.status === 'cancelled') return `Ends on ${formatLondonDate(m.period_end)}`;
  if (m.status === 'past_due' && !m.has_card) return 'Waiting for a card';
  return MEMBERSHIP_STATUS_LABELS[m.status];
}
