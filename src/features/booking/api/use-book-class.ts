import { useCallback, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { useAuth } from '@/lib/auth/auth-context';
import { queryKeys } from '@/lib/query-keys';
import type { BookingType } from '@/config/booking-types';
import { bookClass, type BookClassOutcome } from './book-class';
import { BOOKING_MESSAGES, bookedMessage, bookingErrorView } from './booking-messages';
import { startClassCheckout } from './start-class-checkout';

/**
 * Every Book button and the booking form go through here: one `book_class` request, then the UI
 * shows what the server decided (booked, trial used, payment needed → checkout, or the refusal).
 * A ref guards against a second request while one is in flight (a double click, a fast re-tap),
 * and `pendingClassId` lets the caller disable the button.
 */
/** A booking changes the schedule's facts, the member's bookings, their waitlist places and plan usage. */
export function invalidateAfterBooking(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [queryKeys.classes.all, queryKeys.bookings.all, queryKeys.waitlist.all, queryKeys.planUsage.all].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

/**
 * `announce: false` leaves the success message to the caller (the booking form says it in its
 * confirmation, so one booking shows one toast).
 */
export function useBookClass(options: { failureMessage?: string; announce?: boolean } = {}) {
  const announce = options.announce ?? true;
  const { refreshMember } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const inFlight = useRef(false);
  const [pendingClassId, setPendingClassId] = useState<string | null>(null);
  const failureMessage = options.failureMessage ?? BOOKING_MESSAGES.failedToBook;

  const book = useCallback(
    async (classId: string, bookingType: BookingType | null = null): Promise<BookClassOutcome | null> => {
      if (inFlight.current) return null;
      inFlight.current = true;
      setPendingClassId(classId);
      try {
        const outcome = await bookClass(classId, bookingType);
        if (!outcome.ok) {
          const view = bookingErrorView(outcome.error, failureMessage);
          toast.error(view.message);
          if (view.signInAgain) void navigate('/signin');
          return outcome;
        }
        if (outcome.result.status === 'payment_required') {
          // No booking yet: the payments function holds the spot and the provider takes the money.
          if (!(await startClassCheckout(classId, bookingType))) toast.error(BOOKING_MESSAGES.bookingFailed);
          return outcome;
        }
        if (announce) toast.success(bookedMessage(outcome.result));
        void invalidateAfterBooking(queryClient);
        // A trial booking changes the tier or has_used_trial: reload the member row everyone shows.
        if (outcome.result.booking_type === 'trial') void refreshMember().catch(() => undefined);
        return outcome;
      } finally {
        inFlight.current = false;
        setPendingClassId(null);
      }
    },
    [failureMessage, navigate, refreshMember, queryClient, announce],
  );

  return { book, pendingClassId, isBooking: pendingClassId !== null };
}
