import { supabase } from '@/lib/supabase';

/** How many bookings the member holds, optionally only those booked since `since` (a head-only exact count). */
export async function countMemberBookings(memberId: string, since?: Date): Promise<number> {
  let query = supabase.from('bookings').select('id', { count: 'exact', head: true }).eq('member_id', memberId);
  if (since) query = query.gte('booked_at', since.toISOString());
  const { count, error } = await query;
  if (error) throw error;
  return count ?? 0;
}
