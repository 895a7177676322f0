import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlaceKind } from '@/lib/class-place';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/**
 * Cancels a place through the RPC that owns it, which also gives the spot back: a booking (a
 * member's or a child's) with cancel_booking, a guest's place with remove_guest.
 */
export async function cancelBooking(place: { id: string; kind: PlaceKind }): Promise<void> {
  const { error } =
    place.kind === 'guest'
      ? await supabase.rpc('remove_guest', { p_guest_place_id: place.id })
      : await supabase.rpc('cancel_booking', { p_booking_id: place.id });
  if (error) throw error;
}

export function useCancelBooking() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelBooking, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
