import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { BookingRefused } from '../api/book-class';
import { useCancelBooking } from '../api/cancel-booking';
import { useCompleteHoldPayment } from '../api/complete-hold-payment';
import type { MyBooking } from '../api/get-my-bookings';
import { BOOKING_MESSAGES, cancelErrorMessage } from '../lib/booking-messages';
import { MY_BOOKINGS_MESSAGES } from '../lib/my-bookings-messages';

/**
 * An unpaid hold's two ways out (decision 0010), on My Bookings and the dashboard alike: back to the
 * same card checkout while the hold keeps the spot, or give the spot back (nothing was paid and
 * nothing counts, so it is released at once after one confirmation). `onReleased`: the list
 * puts focus where the hold was.
 */
export function HoldActions({ booking, label, onReleased }: { booking: MyBooking; label: string; onReleased?: () => void }) {
  const complete = useCompleteHoldPayment();
  const release = useCancelBooking();
  const busy = complete.isPending || release.isPending;

  function completePayment() {
    complete.mutate(booking.id, {
      onError: (error) => toast.error(error instanceof BookingRefused ? error.error.message : MY_BOOKINGS_MESSAGES.completePaymentFailed),
    });
  }

  function releaseSpot() {
    if (!window.confirm(MY_BOOKINGS_MESSAGES.confirmRelease)) return;
    release.mutate(booking.id, {
      onSuccess: () => {
        toast.success(MY_BOOKINGS_MESSAGES.released);
        onReleased?.();
      },
      onError: (error) => toast.error(error instanceof BookingRefused ? cancelErrorMessage(error.error) : BOOKING_MESSAGES.cancelFailed),
    });
  }

  return (
    <>
      <Button
        size="sm"
        loading={complete.isPending}
        disabled={busy}
        onClick={completePayment}
        aria-label={`${MY_BOOKINGS_MESSAGES.completePayment} for ${label}`}
      >
        {MY_BOOKINGS_MESSAGES.completePayment}
      </Button>
      <Button
        variant="outline"
        size="sm"
        className="border-red-300 text-red-700 hover:border-red-400 hover:bg-red-50"
        loading={release.isPending}
        disabled={busy}
        onClick={releaseSpot}
        aria-label={`${MY_BOOKINGS_MESSAGES.releaseSpot} in ${label}`}
      >
        {MY_BOOKINGS_MESSAGES.releaseSpot}
      </Button>
    </>
  );
}
