import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

const count = z.coerce.number().int().nonnegative();

/** `admin_membership_stats()`: running memberships, MRR in GBP, this London month's renewals. */
const membershipStatsSchema = z.object({
  active_standard: count,
  active_premium: count,
  mrr: z.coerce.number().nonnegative(),
  renewals_this_month: count,
  failed_renewals_this_month: count,
  past_due: count,
});
export type MembershipStats = z.infer<typeof membershipStatsSchema>;

export async function getMembershipStats(): Promise<MembershipStats> {
  const { data, error } = await supabase.rpc('admin_membership_stats');
  if (error) throw error;
  return membershipStatsSchema.parse(data);
}

export const membershipStatsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.membershipStats(), queryFn: getMembershipStats });

export const useMembershipStats = () => useQuery(membershipStatsQueryOptions());
