import type { Plan } from '@/config/plans';
import { recommendedUpgrades, tierView } from '@/lib/rules/membership-tier';

/**
 * What a signed-in member is offered on a catalogue plan (spec section 6: payg sees Standard and
 * Platinum, standard sees Platinum, premium sees none). The plan they hold shows as current; a
 * membership below theirs is not sold to them (a Standard member was offered "Buy
 * Standard"). Training packages grant no tier: anyone may buy one.
 */
export type PlanOffer = 'buy' | 'current' | 'included';

export function planOffer(plan: Pick<Plan, 'slug' | 'grantsTier'>, tier: string | null | undefined): PlanOffer {
  if (plan.grantsTier === null) return 'buy';
  if (tierView(tier).planSlug === plan.slug) return 'current';
  return recommendedUpgrades(tier).includes(plan.slug) ? 'buy' : 'included';
}
