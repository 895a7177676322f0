import { supabase } from '@/lib/supabase';
import type { BookClassError } from './book-class';

export type CancelBookingResult = { booking_id: string; class_id: string; spots_left: number };
export type CancelBookingOutcome = { ok: true; result: CancelBookingResult } | { ok: false; error: BookClassError };

/** Cancels (deletes) a booking through `cancel_booking`: the owner or an admin only. */
export async function cancelBooking(bookingId: string): Promise<CancelBookingOutcome> {
  const { data, error } = await supabase.rpc('cancel_booking', { p_booking_id: bookingId });
  if (error) return { ok: false, error };
  return { ok: true, result: data as CancelBookingResult };
}
