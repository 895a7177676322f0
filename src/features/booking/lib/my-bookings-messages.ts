import { WAITLIST_MESSAGES } from '../api/waitlist';

/** My Bookings copy from spec section 8, verbatim (the cancel messages live in @/lib/booking/booking-messages). */
export const MY_BOOKINGS_MESSAGES = {
  loadFailed: 'Unable to load your bookings',
  paymentPending: 'Payment pending',
  /** The browser confirmation before cancelling (spec section 5: deleting a booking needs one). */
  confirmCancel: 'Are you sure you want to cancel this booking?',
  addToCalendar: 'Add to calendar',
  // Issue 9: the waitlists the member is on.
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
