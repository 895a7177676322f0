import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/** Cancels (deletes) a booking through the RPC, which also gives the spot back. */
export async function cancelBooking(bookingId: string): Promise<void> {
  const { error } = await supabase.rpc('cancel_booking', { p_booking_id: bookingId });
  if (error) throw error;
}

export function useCancelBooking() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelBooking, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
