import { parsePgInterval } from './late-cancel';

/**
 * Waitlist cut-off (issue 9, decision 0005): joining and promotion end `waitlist_closes_before`
 * the class starts, so nobody is promoted too late to come. The database decides; this mirrors it
 * so a closed waitlist is said on the card instead of offered.
 */

/** The column's default (`private.default_waitlist_closes_before()`), used when a row has none. */
export const DEFAULT_WAITLIST_CLOSES_BEFORE = '02:00:00';

type WaitlistClass = { start_time: string; waitlist_closes_before?: string | null };

/** When the class's waitlist closes. */
export function waitlistClosesAt(cls: WaitlistClass): Date {
  const before = parsePgInterval(cls.waitlist_closes_before) ?? parsePgInterval(DEFAULT_WAITLIST_CLOSES_BEFORE)!;
  return new Date(new Date(cls.start_time).getTime() - before);
}

/** Closed from exactly the cut-off on (inclusive, as the database says). */
export function isWaitlistClosed(cls: WaitlistClass, now: Date): boolean {
  return now.getTime() >= waitlistClosesAt(cls).getTime();
}
