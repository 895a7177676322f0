import { TZDate, tz } from '@date-fns/tz';
import { addDays, format, startOfMonth } from 'date-fns';
import { STUDIO } from '@/config/studio';

/**
 * The start of the current month for plan usage: day 1, 00:00 in the studio's time zone (spec
 * sections 7 and 9; the database's admin_stats uses the same boundary). In summer that instant
 * is 23:00 UTC on the last day of the previous month.
 */
export function startOfMonthInStudio(now: Date): Date {
  return new Date(startOfMonth(new TZDate(now.getTime(), STUDIO.timeZone)).getTime());
}

/** The spec's fixed renewal estimate when the plan has no known renewal date: 30 days after today. */
export const RENEWAL_ESTIMATE_DAYS = 30;

export type Renewal = { date: Date; estimated: boolean };

/** A paid plan's own renewal date when the server knows it, else the 30-day estimate. */
export function nextRenewal(planRenewsAt: string | null | undefined, now: Date): Renewal {
  if (planRenewsAt) {
    const date = new Date(planRenewsAt);
    if (!Number.isNaN(date.getTime())) return { date, estimated: false };
  }
  return { date: addDays(now, RENEWAL_ESTIMATE_DAYS), estimated: true };
}

/** "January 2025": when a member joined, in the studio's time zone. */
export function formatMemberSince(createdAt: string | Date): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? '' : format(date, 'MMMM yyyy', { in: tz(STUDIO.timeZone) });
}
