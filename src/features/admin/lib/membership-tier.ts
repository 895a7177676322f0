import type { MembershipTier } from '@/config/plans';

/** The three tiers the admin screens show; trial and unknown tiers count as Pay as You Go (spec section 2). */
export type DisplayTier = Exclude<MembershipTier, 'trial'>;

export const TIER_LABELS: Record<DisplayTier, string> = { premium: 'Premium', standard: 'Standard', payg: 'Pay as You Go' };

export function displayTier(tier: string | null | undefined): DisplayTier {
  return tier === 'premium' || tier === 'standard' ? tier : 'payg';
}
