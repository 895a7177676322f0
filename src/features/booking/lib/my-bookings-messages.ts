import { BOOKING_MESSAGES, WAITLIST_MESSAGES } from './booking-messages';

/** My Bookings copy (spec section 8 verbatim where the spec words it). */
export const MY_BOOKINGS_MESSAGES = {
  loadFailed: BOOKING_MESSAGES.bookingsLoadFailed,
  paymentPending: 'Payment pending',
  /** The browser confirmation before cancelling (spec section 5: deleting a booking needs one). */
  confirmCancel: 'Are you sure you want to cancel this booking?',
  /** A One-to-One booked with a personal-training session, cancelled in time: the session comes back. */
  sessionBackInTime: 'Cancelling now is free: your personal-training session comes back to you.',
  /** A pay-as-you-go class cancelled inside the free-cancellation window is refunded. */
  refundInTime: 'Cancelling now is free: if you paid by card for this class, the payment is refunded to your card.',
  /** The studio moved the class after the member booked: free to cancel until it starts, all of it back. */
  freeAfterStudioChange:
    'The studio moved this class after you booked, so cancelling is free: anything you paid or used for it comes back.',
  /** Releasing an unpaid hold gives the spot back; nothing was paid, nothing counts. */
  confirmRelease: 'Release your spot in this class? Nothing has been paid and nothing counts against your plan.',
  released: 'Spot released',
  releaseSpot: 'Release spot',
  /** Back to the same card checkout while the hold keeps the spot. */
  completePayment: 'Complete payment',
  completePaymentFailed: 'Could not open the payment page. Please try again.',
  addToCalendar: 'Add to calendar',
  // The waitlists the member is on.
  waitlistHeading: 'Your Waitlists',
  waitlistLoadFailed: 'Unable to load your waitlists',
  leaveWaitlist: 'Leave waitlist',
  confirmLeaveWaitlist: WAITLIST_MESSAGES.confirmLeave,
  leftWaitlist: WAITLIST_MESSAGES.left,
  leaveWaitlistFailed: WAITLIST_MESSAGES.leaveFailed,
} as const;

/** "Position 2 of 5" on a waitlist. */
export function waitlistPosition(position: number, size: number): string {
  return `Position ${position} of ${size}`;
}
