import type { Cancellation } from '../api/get-my-cancellations';
import type { MyBooking } from '../api/get-my-bookings';

/** What the Cancelled tab says about who cancelled a booking, and what it cost (booking_cancellations). */
export function cancellationNote(c: Cancellation): string {
  if (c.by === 'member') return c.late ? 'You cancelled late: it counts against your plan.' : 'You cancelled in time.';
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
