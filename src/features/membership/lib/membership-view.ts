import type { PlanSlug } from '@/config/plans';
import type { CompositeRow } from '@/lib/composite-row';

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
