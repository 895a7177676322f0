import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

/**
 * The member's usage this month, as book_class counts it (`my_plan_usage`, docs/data-contract.md):
 * no allowance (and so nothing remaining) for a plan without one. Read with the generated row type.
 */
type UsageFilled = 'month_start' | 'used' | 'bookings' | 'late_cancellations';
export type PlanUsage = CompositeRow<'plan_usage', UsageFilled>;

export async function getPlanUsage(): Promise<PlanUsage> {
  const { data, error } = await (await loadSupabase()).rpc('my_plan_usage');
  if (error) throw error;
  return compositeRow<'plan_usage', UsageFilled>(data);
}

export const planUsageQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.planUsage.mine(memberId), queryFn: getPlanUsage });

export const usePlanUsage = (memberId: string | null) => useQuery({ ...planUsageQueryOptions(memberId ?? ''), enabled: memberId !== null });
