import { supabase } from '@/lib/supabase';

/** Cancels (deletes) a booking through the RPC, which also gives the spot back. */
export async function cancelBooking(bookingId: string): Promise<void> {
  const { error } = await supabase.rpc('cancel_booking', { p_booking_id: bookingId });
  if (error) throw error;
}
