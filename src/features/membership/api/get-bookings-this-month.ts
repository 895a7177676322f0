import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

const usageSchema = z.object({ allowance: z.number().nullable(), used: z.number(), bookings: z.number() });

/**
 * Sessions used this month, as the server counts them (`my_plan_usage`, the same count book_class
 * enforces): a plan's classes including late cancellations; every booking for pay-as-you-go.
 */
export async function getBookingsThisMonth(): Promise<number> {
  const { data, error } = await supabase.rpc('my_plan_usage');
  if (error) throw error;
  const usage = usageSchema.parse(data);
  return usage.allowance === null ? usage.bookings : usage.used;
}

export const bookingsThisMonthQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.planUsage.used(memberId), queryFn: getBookingsThisMonth });

export const useBookingsThisMonth = (memberId: string | null) => useQuery({ ...bookingsThisMonthQueryOptions(memberId ?? ''), enabled: memberId !== null });
