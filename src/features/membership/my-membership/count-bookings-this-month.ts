import { startOfMonthInStudio } from '@/lib/rules/month';
import { supabase } from '@/lib/supabase';

/** Sessions used: the member's bookings since the 1st of this month, 00:00 London (head-only exact count). */
export async function countBookingsThisMonth(memberId: string): Promise<number> {
  const { count, error } = await supabase
    .from('bookings')
    .select('id', { count: 'exact', head: true })
    .eq('member_id', memberId)
    .gte('booked_at', startOfMonthInStudio(new Date()).toISOString());
  if (error) throw error;
  return count ?? 0;
}
