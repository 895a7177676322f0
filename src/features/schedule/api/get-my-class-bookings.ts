import { supabase } from '@/lib/supabase';

export type MyClassBooking = { id: string; class_id: string };

/** The member's own bookings (id and class), to offer Cancel Booking on the classes they hold. */
export async function getMyClassBookings(memberId: string): Promise<MyClassBooking[]> {
  const { data, error } = await supabase.from('bookings').select('id, class_id').eq('member_id', memberId);
  if (error) throw error;
  return data;
}
