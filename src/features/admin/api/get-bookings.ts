import { supabase } from '@/lib/supabase';
import { ADMIN_MESSAGES } from '../messages';
import { useResource } from '../hooks/use-resource';

export type AdminBooking = {
  id: string;
  booked_at: string;
  member: { name: string | null; email: string };
  class: { name: string; start_time: string; trainer: string };
};

/** Every booking with its member and class, newest first; rows missing either join are hidden (spec section 3). */
export async function getBookings(): Promise<AdminBooking[]> {
  const { data, error } = await supabase
    .from('bookings')
    .select('id, booked_at, members(name,email), classes(name,start_time,trainer)')
    .order('booked_at', { ascending: false });
  if (error) throw error;
  return data.flatMap((row) =>
    row.members && row.classes ? [{ id: row.id, booked_at: row.booked_at, member: row.members, class: row.classes }] : [],
  );
}

export function useBookings() {
  return useResource(getBookings, ADMIN_MESSAGES.bookingsLoadFailed);
}
