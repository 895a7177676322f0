/** The booking types `book_class` records, and how each is called on screen (the booking form's labels, spec section 2). */
export type BookingType = 'paid' | 'trial' | 'payg';

export const BOOKING_TYPE_LABELS: Record<BookingType, string> = { paid: 'Member', trial: 'Free Trial', payg: 'Pay-as-you-go' };
