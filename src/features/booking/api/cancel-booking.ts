import { useMutation, useQueryClient } from '@tanstack/react-query';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { loadSupabase } from '@/lib/supabase-loader';
import { invalidateAfterBooking, BookingRefused } from './book-class';

/** What `cancel_booking` answers; `late`: cancelled inside the late-cancel window, so the class still counts. */
export type Cancellation = CompositeRow<'cancellation_result', 'booking_id' | 'class_id' | 'late'>;

/** Cancels (deletes) a booking or releases a hold through `cancel_booking`: the owner or an admin only. */
export async function cancelBooking(bookingId: string): Promise<Cancellation> {
  const { data, error } = await (await loadSupabase()).rpc('cancel_booking', { p_booking_id: bookingId });
  if (error) throw new BookingRefused(error);
  return compositeRow<'cancellation_result', 'booking_id' | 'class_id' | 'late'>(data);
}

/** A cancellation frees a spot (the schedule, maybe someone's waitlist) and may count against the plan. */
export function useCancelBooking() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelBooking, onSettled: () => invalidateAfterBooking(queryClient) });
}
