import type { MyBooking } from '../api/get-my-bookings';

export const BOOKING_TABS = ['upcoming', 'past', 'cancelled'] as const;
export type BookingTab = (typeof BOOKING_TABS)[number];
export const BOOKING_TAB_LABELS: Record<BookingTab, string> = { upcoming: 'Upcoming', past: 'Past', cancelled: 'Cancelled' };

/**
 * Spec section 4: upcoming is a confirmed booking starting now or later, past a confirmed one
 * whose start has passed, cancelled those cancelled on this screen. Upcoming runs soonest first,
 * past and cancelled most recent first.
 */
export function splitBookings(bookings: MyBooking[], now: Date): Record<BookingTab, MyBooking[]> {
  const t = now.getTime();
  const upcoming = bookings.filter((b) => b.status === 'confirmed' && b.startsAt.getTime() >= t);
  const past = bookings.filter((b) => b.status === 'confirmed' && b.startsAt.getTime() < t);
  const cancelled = bookings.filter((b) => b.status === 'cancelled');
  const asc = (a: MyBooking, b: MyBooking) => a.startsAt.getTime() - b.startsAt.getTime();
  return { upcoming: upcoming.sort(asc), past: past.sort((a, b) => -asc(a, b)), cancelled: cancelled.sort((a, b) => -asc(a, b)) };
}

/** The member's Next Class: the soonest upcoming confirmed booking; a payment hold never is. */
export function nextClass(upcoming: MyBooking[]): MyBooking | undefined {
  return upcoming.find((b) => b.paymentStatus === 'completed');
}

/** The dashboard lists at most 5 upcoming bookings (spec section 9). */
export const DASHBOARD_UPCOMING_LIMIT = 5;
