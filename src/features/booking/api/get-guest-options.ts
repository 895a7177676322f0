import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Database } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

type GuestOptionRow = Database['public']['CompositeTypes']['guest_option'];

/**
 * How a booking can bring a guest: the pass it would use, the price to pay instead, and
 * whether the class has a place left for a guest (when not, the screen says so and opens no form).
 */
export type GuestOption = { passExpiresAt: string | null; price: number | null; hasRoom: boolean };

/**
 * The member's confirmed upcoming group classes they can bring a guest to (`my_guest_options`),
 * by booking id: the guest pass that expires first among those valid that day, and the class's
 * pay-as-you-go price, and whether the class has room. The database decides again when the member confirms.
 */
export async function getGuestOptions(): Promise<GuestOptionRow[]> {
  const { data, error } = await (await loadSupabase()).rpc('my_guest_options');
  if (error) throw error;
  return data;
}

/** By booking id. The cache keeps the rows as read (plain JSON: the member's saved copy stores them); the Map is made on read. */
export function guestOptionsByBooking(rows: GuestOptionRow[]): Map<string, GuestOption> {
  const byBooking = new Map<string, GuestOption>();
  for (const row of rows) {
    if (!row.booking_id) continue;
    byBooking.set(row.booking_id, {
      passExpiresAt: row.pass_expires_at,
      price: row.price === null ? null : Number(row.price),
      // A copy saved before has_room existed has none: offer the form, add_guest still decides.
      hasRoom: row.has_room !== false,
    });
  }
  return byBooking;
}

export const guestOptionsQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.bookings.guestOptions(memberId), queryFn: getGuestOptions, select: guestOptionsByBooking });

export const useGuestOptions = (memberId: string | null) =>
  useQuery({ ...guestOptionsQueryOptions(memberId ?? ''), enabled: memberId !== null });
