import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { loadSupabase } from '@/lib/supabase-loader';
import { invalidateAfterBooking, BookingRefused } from './book-class';

const cancellationSchema = z.object({
  booking_id: z.string(),
  class_id: z.string(),
  spots_left: z.number().nullable(),
  /** The member cancelled inside the late-cancel window: the class still counts against the plan. */
  late: z.boolean(),
});
export type Cancellation = z.infer<typeof cancellationSchema>;

/** Cancels (deletes) a booking or releases a hold through `cancel_booking`: the owner or an admin only. */
export async function cancelBooking(bookingId: string): Promise<Cancellation> {
  const { data, error } = await (await loadSupabase()).rpc('cancel_booking', { p_booking_id: bookingId });
  if (error) throw new BookingRefused(error);
  return cancellationSchema.parse(data);
}

/** A cancellation frees a spot (the schedule, maybe someone's waitlist) and may count against the plan. */
export function useCancelBooking() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelBooking, onSettled: () => invalidateAfterBooking(queryClient) });
}
