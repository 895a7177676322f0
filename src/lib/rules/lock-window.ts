/**
 * The premium unlock window's text (spec section 4: a number followed by days, hours or minutes;
 * the database checks the same format) for the admin's class form, and "opens in" wording. Whether
 * a class is locked for someone is decided by the server (class_schedule's `unlocks_at`).
 */
export const DEFAULT_UNLOCK_WINDOW = '3 days';

const MS_PER_UNIT = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
const WINDOW_PATTERN = /^\s*(\d+)\s*(day|hour|minute)s?\s*$/i;

/** The unlock window in milliseconds; an empty or malformed value falls back to the default. */
export function parseUnlockWindow(value: string | null | undefined): number {
  const match = WINDOW_PATTERN.exec(value ?? '') ?? WINDOW_PATTERN.exec(DEFAULT_UNLOCK_WINDOW)!;
  const unit = match[2]!.toLowerCase() as keyof typeof MS_PER_UNIT;
  return Number(match[1]) * MS_PER_UNIT[unit];
}

/** "2d 4h 30m" until `target` (days, hours and minutes, like the countdowns; at least 1m). */
export function formatTimeUntil(target: Date, now: Date): string {
  const totalMinutes = Math.max(1, Math.ceil((target.getTime() - now.getTime()) / 60_000));
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  const parts = [days ? `${days}d` : '', days || hours ? `${hours}h` : '', `${minutes}m`].filter(Boolean);
  return parts.join(' ');
}
