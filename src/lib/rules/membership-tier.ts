import { PLANS, type PlanSlug } from '@/config/plans';

/**
 * How a member's tier reads on member screens, which catalogue plan it corresponds to, and what
 * the member is offered next (spec section 6: payg sees Standard and Platinum, standard sees
 * Platinum, premium sees none). Trial members and unknown tiers are treated as pay-as-you-go,
 * as the admin screens and the quota rule do.
 */
export type TierView = { label: string; planSlug: PlanSlug | null };

export function tierView(tier: string | null | undefined): TierView {
  if (tier === 'standard') return { label: PLANS.standard.name, planSlug: 'standard' };
  if (tier === 'premium') return { label: PLANS.platinum.name, planSlug: 'platinum' };
  if (tier === 'trial') return { label: 'Free Trial', planSlug: null };
  return { label: 'Pay as You Go', planSlug: null };
}

export function recommendedUpgrades(tier: string | null | undefined): PlanSlug[] {
  if (tier === 'premium') return [];
  if (tier === 'standard') return ['platinum'];
  return ['standard', 'platinum'];
}
