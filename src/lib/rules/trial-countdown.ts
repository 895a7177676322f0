import { londonDaysUntil } from '@/lib/studio-calendar';

/** Whole days left of a free trial ending at `expiresAt`, in London calendar days (0 = today). */
export function trialDaysLeft(expiresAt: string, now: Date): number {
  return Math.max(0, londonDaysUntil(expiresAt, now));
}

/** "Your free trial ends in 3 days" / "… ends tomorrow" / "… ends today" (decision 0009). */
export function trialEndsText(expiresAt: string, now: Date): string {
  const days = trialDaysLeft(expiresAt, now);
  if (days === 0) return 'Your free trial ends today';
  if (days === 1) return 'Your free trial ends tomorrow';
  return `Your free trial ends in ${days} days`;
}
