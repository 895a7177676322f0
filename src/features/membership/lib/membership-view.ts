import { tz } from '@date-fns/tz';
import { format } from 'date-fns';
import type { PlanSlug } from '@/config/plans';
import { STUDIO } from '@/config/studio';
import type { CompositeRow } from '@/lib/composite-row';

/** The plans a membership can be on (memberships.plan_slug and next_plan_slug, by their check constraints). */
export type MembershipPlanSlug = Extract<PlanSlug, 'standard' | 'platinum' | 'student'>;

/** The fields `my_membership()` always sets when the caller has a membership. */
export type MyMembershipSetFields = 'id' | 'tier' | 'status' | 'period_start' | 'period_end' | 'renews' | 'has_card';

/** The caller's membership as `my_membership()` returns it (issue 13), when there is one. */
export type MyMembership = Omit<CompositeRow<'my_membership', MyMembershipSetFields>, 'plan_slug' | 'next_plan_slug'> & {
  plan_slug: MembershipPlanSlug | null;
  next_plan_slug: MembershipPlanSlug | null;
};

/** A plan membership that still gives access (renewing, past due, or cancelled before its end). */
export function isRunningPlan(m: MyMembership | null | undefined): m is MyMembership {
  return !!m && m.ended_at === null && (m.status === 'active' || m.status === 'past_due' || m.status === 'cancelled');
}

/** 15 February 2027 (London). */
export function londonDate(at: string | Date): string {
  return format(new Date(at), 'd MMMM yyyy', { in: tz(STUDIO.timeZone) });
}
