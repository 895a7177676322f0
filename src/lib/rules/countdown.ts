/** The countdown on the Next Class cards refreshes every minute (spec section 9). */
export const COUNTDOWN_REFRESH_MS = 60_000;

export const CLASS_STARTED_TEXT = 'Class has started';

export type CountdownParts = { days: number; hours: number; minutes: number };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Time left until `start`, split into whole days, hours and minutes, or null once the class has
 * started (exactly at the start time counts as started). Seconds are dropped, not rounded up, so
 * the minute shown never runs ahead of the clock.
 */
export function countdownParts(start: Date, now: Date): CountdownParts | null {
  const left = start.getTime() - now.getTime();
  if (!(left > 0)) return null;
  return {
    days: Math.floor(left / DAY),
    hours: Math.floor((left % DAY) / HOUR),
    minutes: Math.floor((left % HOUR) / MINUTE),
  };
}

/** "2d 3h 15m" (days and hours only when non-zero), or 'Class has started'. */
export function formatCountdown(start: Date, now: Date): string {
  const parts = countdownParts(start, now);
  return parts ? formatParts(parts) : CLASS_STARTED_TEXT;
}

/**
 * "2d 4h 30m" until an instant the server stated (a premium class opening), never under "1m":
 * the instant has not passed while the screen still shows it, so the minute is rounded up.
 */
export function formatTimeLeft(target: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((target.getTime() - now.getTime()) / MINUTE));
  return formatParts({ days: Math.floor(minutes / 1440), hours: Math.floor((minutes % 1440) / 60), minutes: minutes % 60 });
}

function formatParts({ days, hours, minutes }: CountdownParts): string {
  const out: string[] = [];
  if (days > 0) out.push(`${days}d`);
  if (days > 0 || hours > 0) out.push(`${hours}h`);
  out.push(`${minutes}m`);
  return out.join(' ');
}
