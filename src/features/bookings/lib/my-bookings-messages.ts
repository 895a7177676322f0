/** My Bookings copy from spec section 8, verbatim (the cancel messages live in @/lib/booking/booking-messages). */
export const MY_BOOKINGS_MESSAGES = {
  loadFailed: 'Unable to load your bookings',
  paymentPending: 'Payment pending',
  /** The browser confirmation before cancelling (spec section 5: deleting a booking needs one). */
  confirmCancel: 'Are you sure you want to cancel this booking?',
} as const;
