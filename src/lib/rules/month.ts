import { TZDate, tz } from '@date-fns/tz';
import { format, startOfMonth } from 'date-fns';
import { STUDIO } from '@/config/studio';

/**
 * The start of the current month for plan usage: day 1, 00:00 in the studio's time zone (spec
 * sections 7 and 9; the database's admin_stats uses the same boundary). In summer that instant
 * is 23:00 UTC on the last day of the previous month.
 */
export function startOfMonthInStudio(now: Date): Date {
  return new Date(startOfMonth(new TZDate(now.getTime(), STUDIO.timeZone)).getTime());
}

/**
 * A paid plan's renewal date, from the membership record (members.plan_renews_at mirrors it), or
 * null when there is none. Issue 25 improves on spec section 3's "30 days from today" estimate: a
 * guessed date is never shown as if it were the renewal.
 */
export function planRenewalDate(planRenewsAt: string | null | undefined): Date | null {
  if (!planRenewsAt) return null;
  const date = new Date(planRenewsAt);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "January 2025": when a member joined, in the studio's time zone. */
export function formatMemberSince(createdAt: string | Date): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? '' : format(date, 'MMMM yyyy', { in: tz(STUDIO.timeZone) });
}
