import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

/** The member's usage this month, as book_class counts it (`my_plan_usage`, docs/data-contract.md). */
const planUsageSchema = z.object({
  month_start: z.string(),
  allowance: z.nullable(z.number()),
  used: z.number(),
  remaining: z.nullable(z.number()),
  bookings: z.number(),
  late_cancellations: z.number(),
});
export type PlanUsage = z.infer<typeof planUsageSchema>;

export async function getPlanUsage(): Promise<PlanUsage> {
  const { data, error } = await (await loadSupabase()).rpc('my_plan_usage');
  if (error) throw error;
  return planUsageSchema.parse(data);
}

export const planUsageQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.planUsage.mine(memberId), queryFn: getPlanUsage });

export const usePlanUsage = (memberId: string | null) => useQuery({ ...planUsageQueryOptions(memberId ?? ''), enabled: memberId !== null });
