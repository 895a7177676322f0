import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** `admin_membership_stats()` (membership_figures): memberships in MRR now (private.mrr_at), MRR in GBP, this London month's renewals. */
export type MembershipStats = CompositeRow<'membership_figures'>;

export async function getMembershipStats(): Promise<MembershipStats> {
  const { data, error } = await supabase.rpc('admin_membership_stats');
  if (error) throw error;
  return compositeRow<'membership_figures'>(data);
}

export const membershipStatsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.membershipStats(), queryFn: getMembershipStats });

export const useMembershipStats = () => useQuery(membershipStatsQueryOptions());
