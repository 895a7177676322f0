/**
 * Late-cancel window (issue 9, decision 0005): a member who cancels their own confirmed booking at
 * or after `start_time - late_cancel_window` still has the class counted against their plan. The
 * database decides (`cancel_booking` returns `late`); this mirrors the rule so the member is told
 * before confirming. The window is the class's `late_cancel_window` interval, which PostgREST
 * returns as Postgres interval text (`"12:00:00"`, `"1 day 02:00:00"`, `"7 days"`).
 */

/** The column's default (`private.default_late_cancel_window()`), used when a row has none. */
export const DEFAULT_LATE_CANCEL_WINDOW = '12:00:00';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

// Postgres' default interval output: optional "N day(s)" then an optional "[-]HH:MM:SS[.ffffff]".
const PG_INTERVAL = /^\s*(?:(-?\d+)\s+days?)?\s*(?:(-)?(\d+):(\d{2}):(\d{2})(?:\.\d+)?)?\s*$/i;

/** Milliseconds of a Postgres interval in its default text form; null when it is not one. */
export function parsePgInterval(value: string | null | undefined): number | null {
  if (!value?.trim()) return null;
  const m = PG_INTERVAL.exec(value);
  if (!m || (m[1] === undefined && m[3] === undefined)) return null;
  const days = Number(m[1] ?? 0);
  const time = (Number(m[3] ?? 0) * 3600 + Number(m[4] ?? 0) * 60 + Number(m[5] ?? 0)) * 1000;
  return days * DAY_MS + (m[2] ? -time : time);
}

/** The class's window in ms; a missing or unreadable value is the studio default. */
export function lateCancelWindowMs(window: string | null | undefined): number {
  return parsePgInterval(window) ?? parsePgInterval(DEFAULT_LATE_CANCEL_WINDOW)!;
}

export type LateCancelBooking = {
  startsAt: Date;
  /** `classes.late_cancel_window` as PostgREST returns it. */
  lateCancelWindow: string | null | undefined;
  /** Only a completed booking counts: dropping an unpaid hold never uses the plan. */
  paymentStatus: string;
};

/** When cancelling this booking starts to count as late. */
export function lateCancelStartsAt(booking: Pick<LateCancelBooking, 'startsAt' | 'lateCancelWindow'>): Date {
  return new Date(booking.startsAt.getTime() - lateCancelWindowMs(booking.lateCancelWindow));
}

/** Whether cancelling at `now` is late: from exactly start minus the window (inclusive), as the database says. */
export function isLateCancel(booking: LateCancelBooking, now: Date): boolean {
  if (booking.paymentStatus !== 'completed') return false;
  return now.getTime() >= lateCancelStartsAt(booking).getTime();
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** "12 hours", "1 day", "90 minutes": the window in the largest whole unit. */
export function formatWindow(ms: number): string {
  if (ms >= DAY_MS && ms % DAY_MS === 0) return plural(ms / DAY_MS, 'day');
  if (ms >= HOUR_MS && ms % HOUR_MS === 0) return plural(ms / HOUR_MS, 'hour');
  return plural(Math.round(ms / MINUTE_MS), 'minute');
}

/** The warning shown on the booking and in the confirmation before a late cancel. */
export function lateCancelWarning(window: string | null | undefined): string {
  return `This class starts within ${formatWindow(lateCancelWindowMs(window))}: cancelling now still counts against your plan.`;
}

/** The window in words on a class card: later cancellations still count against the plan. */
export function freeCancellationText(window: string | null | undefined): string {
  return `Free cancellation up to ${formatWindow(lateCancelWindowMs(window))} before the start.`;
}
