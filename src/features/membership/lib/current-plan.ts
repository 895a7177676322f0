import type { PlanSlug } from '@/config/plans';
import { recommendedUpgrades, tierView } from '@/lib/rules/membership-tier';
import { nextRenewal, type Renewal } from '@/lib/rules/month';
import type { Member } from '@/lib/supabase';

/** The spec's derived current-plan view (section 3), plus what to offer next. */
export type CurrentPlan = {
  planName: string;
  planSlug: PlanSlug | null;
  /** Only paid monthly plans renew; null for pay-as-you-go and trial. */
  renewal: Renewal | null;
  memberSince: string;
  upgrades: PlanSlug[];
};

export function currentPlan(member: Pick<Member, 'membership_tier' | 'plan_renews_at' | 'created_at'>, now: Date): CurrentPlan {
  const tier = tierView(member.membership_tier);
  return {
    planName: tier.label,
    planSlug: tier.planSlug,
    renewal: tier.planSlug ? nextRenewal(member.plan_renews_at, now) : null,
    memberSince: member.created_at,
    upgrades: recommendedUpgrades(member.membership_tier),
  };
}
