import type { PlanSlug } from '@/config/plans';
import { recommendedUpgrades, tierView } from '@/lib/rules/membership-tier';
import { planRenewalDate } from '@/lib/rules/renewal-date';
import type { Member } from '@/lib/supabase';

/** The spec's derived current-plan view (section 3), plus what to offer next. */
export type CurrentPlan = {
  planName: string;
  planSlug: PlanSlug | null;
  /** The membership record's renewal date; null for pay-as-you-go, trial, or a plan with none on record. */
  renewal: Date | null;
  memberSince: string;
  upgrades: PlanSlug[];
};

export function currentPlan(member: Pick<Member, 'membership_tier' | 'plan_renews_at' | 'created_at'>): CurrentPlan {
  const tier = tierView(member.membership_tier);
  return {
    planName: tier.label,
    planSlug: tier.planSlug,
    renewal: tier.planSlug ? planRenewalDate(member.plan_renews_at) : null,
    memberSince: member.created_at,
    upgrades: recommendedUpgrades(member.membership_tier),
  };
}
