import { useRef } from 'react';
import { useAttendancePolicies } from '@/lib/attendance-policy';
import { toast } from '@/lib/toast';
import { BOOKING_MESSAGES, cancelErrorMessage } from '../lib/booking-messages';
import { cancelQuestion, type CancelTarget } from '../lib/cancel-question';
import { BookingRefused } from './book-class';
import { useCancelBooking } from './cancel-booking';

/**
 * Cancelling a booking, the same on every screen that offers it (My Bookings, My Schedule): ask
 * first (saying when it still counts or what comes back), one request at a time whatever the
 * clicks, then say what happened. Resolves true when the booking is cancelled, so the screen can
 * move focus or keep a line in its place.
 */
export function useCancelFlow() {
  const mutation = useCancelBooking();
  const busy = useRef(false);
  // The attendance policy's late-cancel fee is said in the question (decision 0080).
  const policies = useAttendancePolicies();

  async function cancel(target: CancelTarget): Promise<boolean> {
    if (busy.current || !window.confirm(cancelQuestion(target, new Date(), policies.data))) return false;
    busy.current = true;
    try {
      await mutation.mutateAsync(target.bookingId);
      toast.success(BOOKING_MESSAGES.cancelled);
      return true;
    } catch (error) {
      toast.error(error instanceof BookingRefused ? cancelErrorMessage(error.error) : BOOKING_MESSAGES.cancelFailed);
      return false;
    } finally {
      busy.current = false;
    }
  }

  return { cancel, pendingBookingId: mutation.isPending ? mutation.variables : null, isPending: mutation.isPending };
}
