import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tables } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

export type MyGuest = Pick<Tables<'guest_places'>, 'id' | 'class_id' | 'host_booking_id' | 'guest_name' | 'guest_email' | 'payment_status'>;

/** The guests the member brings (row-level security: their own), for My Bookings. */
export async function getMyGuests(): Promise<MyGuest[]> {
  const { data, error } = await (
    await loadSupabase()
  )
    .from('guest_places')
    .select('id, class_id, host_booking_id, guest_name, guest_email, payment_status')
    .order('created_at');
  if (error) throw error;
  return data;
}

export const myGuestsQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.bookings.guests(memberId), queryFn: getMyGuests });

export const useMyGuests = (memberId: string | null) => useQuery({ ...myGuestsQueryOptions(memberId ?? ''), enabled: memberId !== null });

/** A booking's guests, by the host's booking id. */
export function guestsByBooking(guests: MyGuest[]): Map<string, MyGuest[]> {
  const byBooking = new Map<string, MyGuest[]>();
  for (const guest of guests) byBooking.set(guest.host_booking_id, [...(byBooking.get(guest.host_booking_id) ?? []), guest]);
  return byBooking;
}
