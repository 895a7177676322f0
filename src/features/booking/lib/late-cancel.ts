/**
 * The late-cancel window in words, and whether cancelling now still counts against the plan, from
 * the instant the server states (`late_cancel_from` of class_schedule and my_bookings). No imports:
 * the database tests run `cancellingCountsNow` beside cancel_booking to hold the two together.
 */
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** "12 hours", "1 day", "90 minutes": a length of time in its largest whole unit. */
export function formatWindow(ms: number): string {
  if (ms >= DAY_MS && ms % DAY_MS === 0) return plural(ms / DAY_MS, 'day');
  if (ms >= HOUR_MS && ms % HOUR_MS === 0) return plural(ms / HOUR_MS, 'hour');
  return plural(Math.round(ms / MINUTE_MS), 'minute');
}

type LateCancelFacts = { start_time: string | null; late_cancel_from: string | null };

const windowMs = (f: LateCancelFacts) => new Date(f.start_time ?? 0).getTime() - new Date(f.late_cancel_from ?? 0).getTime();

/** The late-cancel window in words ("12 hours"). */
export function cancelWindowText(cls: LateCancelFacts): string {
  return formatWindow(windowMs(cls));
}

/** The late-cancel window in words on a class card ("Free cancellation up to 12 hours before the start."). */
export function freeCancellationText(cls: LateCancelFacts): string {
  return `Free cancellation up to ${formatWindow(windowMs(cls))} before the start.`;
}

/**
 * Whether cancelling at `now` is late (it costs the plan class, the payment or the session): from the server's `late_cancel_from`
 * on (inclusive, as cancel_booking decides); never for a hold (the server gives no instant).
 * supabase/tests/booking-facts-api.test.ts holds this to cancel_booking's own answer.
 */
export function cancellingCountsNow(booking: Pick<LateCancelFacts, 'late_cancel_from'>, now: Date): boolean {
  return booking.late_cancel_from !== null && now.getTime() >= new Date(booking.late_cancel_from).getTime();
}

/**
 * What a late cancellation costs, by what the place used (bookings.type): a plan's class, the free
 * trial, a card payment, a personal-training session. The database decides (cancel_booking and the
 * refunds and credits it triggers); this only words it.
 */
const LATE_COST: Record<string, string> = {
  paid: 'still counts against your plan',
  trial: 'still uses your free trial',
  payg: 'is not refunded',
  credit: 'still uses your personal-training session',
};

/** Said before a late cancellation is confirmed, and on the booking once it is inside the window. */
export function lateCancelWarning(booking: LateCancelFacts, type: string): string {
  return `This class starts within ${formatWindow(windowMs(booking))}: cancelling now ${LATE_COST[type] ?? LATE_COST.paid}.`;
}
