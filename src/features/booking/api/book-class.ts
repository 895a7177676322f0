import type { BookingType } from '@/config/booking-types';
import type { PostgrestError } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';

/** The booking form's choice (spec: Member / Free Trial / Pay-as-you-go); null lets the server decide. */

/** What `book_class` answered (docs/data-contract.md). */
export type BookClassResult = {
  status: 'booked' | 'payment_required';
  booking_id: string | null;
  class_id: string;
  booking_type: BookingType | null;
  payment_status: 'completed' | 'pending' | null;
  needs_payment: boolean;
  price_payg: number | null;
  previous_tier: string | null;
  tier: string | null;
  trial_used: boolean;
  spots_left: number | null;
};

/** A refusal raised by the RPC (`hint` is the stable code) or a transport failure (no hint). */
export type BookClassError = Pick<PostgrestError, 'code' | 'message' | 'hint' | 'details'>;

export type BookClassOutcome = { ok: true; result: BookClassResult } | { ok: false; error: BookClassError };

function isResult(data: unknown): data is BookClassResult {
  const status = (data as { status?: unknown } | null)?.status;
  return status === 'booked' || status === 'payment_required';
}

/** One request: the server decides the booking type, payment and tier change, or refuses. */
export async function bookClass(classId: string, bookingType: BookingType | null = null): Promise<BookClassOutcome> {
  const { data, error } = await supabase.rpc('book_class', { p_class_id: classId, p_booking_type: bookingType });
  if (error) return { ok: false, error };
  if (!isResult(data)) return { ok: false, error: { code: 'unexpected_response', message: 'Unexpected booking response', hint: '', details: '' } };
  return { ok: true, result: data };
}
