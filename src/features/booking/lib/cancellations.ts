import type { Cancellation } from '../api/get-my-cancellations';
import type { MyBooking } from '../api/get-my-bookings';

/** A member's own late cancellation, by what the place used (bookings.type). */
const LATE_NOTE: Record<string, string> = {
  paid: 'You cancelled late: it counts against your plan.',
  trial: 'You cancelled late: it used your free trial.',
  payg: 'You cancelled late: the payment was not refunded.',
  credit: 'You cancelled late: it used your personal-training session.',
};

/** A member's own cancellation in time, where something came back. */
const IN_TIME_NOTE: Record<string, string> = {
  payg: 'You cancelled in time: anything you paid by card is refunded.',
  credit: 'You cancelled in time: your personal-training session came back.',
};

/** What the Cancelled tab says about who cancelled a booking, and what it cost (booking_cancellations). */
export function cancellationNote(c: Cancellation): string {
  if (c.by === 'member') return c.late ? (LATE_NOTE[c.type] ?? LATE_NOTE.paid!) : (IN_TIME_NOTE[c.type] ?? 'You cancelled in time.');
  if (c.by === 'plan_ended') return 'Cancelled when your plan ended.';
  return c.reason ? `Cancelled by the studio: ${c.reason}.` : 'Cancelled by the studio.';
}

/**
 * The Cancelled tab: what the database kept, plus what was cancelled on this visit and is not in
 * the kept list yet (its refetch may still be on the way). One entry per booking.
 */
export function cancelledBookings(kept: MyBooking[], thisVisit: MyBooking[]): MyBooking[] {
  const keptIds = new Set(kept.map((b) => b.id));
  return [...kept, ...thisVisit.filter((b) => !keptIds.has(b.id))];
}
