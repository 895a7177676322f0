import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MembershipTier } from '@/config/plans';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { DisplayTier } from '../lib/membership-tier';

export type MemberTierCounts = { total: number } & Record<DisplayTier, number>;

async function countMembers(tier?: MembershipTier): Promise<number> {
  // A sign-up that never confirmed its email is not a member yet (decision 0070), as admin_stats counts.
  let query = supabase.from('members').select('id', { count: 'exact', head: true }).eq('awaiting_confirmation', false);
  if (tier) query = query.eq('membership_tier', tier);
  const { count, error } = await query;
  if (error) throw error;
  return count ?? 0;
}

/**
 * Members Management's four cards, counted on the server over every member (three HEAD counts on
 * the members table; admin_stats would also count every booking). Every tier other than premium
 * and standard shows as Pay as You Go (displayTier), so that card is the remainder.
 */
export async function getMemberTierCounts(): Promise<MemberTierCounts> {
  const [total, premium, standard] = await Promise.all([countMembers(), countMembers('premium'), countMembers('standard')]);
  return { total, premium, standard, payg: total - premium - standard };
}

export const memberTierCountsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.admin.members({ tiers: true }), queryFn: getMemberTierCounts });

export const useMemberTierCounts = () => useQuery(memberTierCountsQueryOptions());
