import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { startOfMonthInStudio } from '@/lib/rules/month';
import { supabase } from '@/lib/supabase';

/** Sessions used: the member's bookings since the 1st of this month, 00:00 London (head-only exact count). */
export async function getBookingsThisMonth(memberId: string, now: Date = new Date()): Promise<number> {
  const { count, error } = await supabase
    .from('bookings')
    .select('id', { count: 'exact', head: true })
    .eq('member_id', memberId)
    .gte('booked_at', startOfMonthInStudio(now).toISOString());
  if (error) throw error;
  return count ?? 0;
}

export const bookingsThisMonthQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.planUsage.bookingsThisMonth(memberId), queryFn: () => getBookingsThisMonth(memberId) });

export const useBookingsThisMonth = (memberId: string | null) => useQuery({ ...bookingsThisMonthQueryOptions(memberId ?? ''), enabled: memberId !== null });
