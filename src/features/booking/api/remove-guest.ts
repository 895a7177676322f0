import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '@/lib/supabase-loader';
import { BookingRefused, invalidateAfterBooking } from './book-class';

// Apart from guest-mutations.ts: My Bookings lists guests with Remove on first paint, and adding
// one (its form, zod and react-hook-form, ~40 KB gzip) loads only when Add a guest is pressed.

/** The host removes their guest (`remove_guest`): in time, the pass comes back. */
export async function removeGuest(guestPlaceId: string): Promise<void> {
  const { error } = await (await loadSupabase()).rpc('remove_guest', { p_guest_place_id: guestPlaceId });
  if (error) throw new BookingRefused(error);
}

/** A guest frees a place and a pass: the schedule, My Bookings and the credits change. */
export function useRemoveGuest() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeGuest, onSettled: () => invalidateAfterBooking(queryClient) });
}
