/**
 * Premium class lock (spec section 4): a premium class is locked for non-premium members until
 * its start time minus the class's unlock window, when it opens. The window is a number followed
 * by days, hours or minutes (the database checks the same format); the default is 3 days.
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

export type LockableClass = { start_time: string; is_premium: boolean; unlock_for_standard: string | null };

/** When a premium class opens for non-premium members (null for a class that is not premium). */
export function unlockTime(cls: LockableClass): Date | null {
  if (!cls.is_premium) return null;
  return new Date(new Date(cls.start_time).getTime() - parseUnlockWindow(cls.unlock_for_standard));
}

export type LockViewer = {
  /** The member's tier, or null for a guest (guests see the lock too). */
  tier: string | null;
  /** The first schedule screen (/schedule) does not lock trial members (spec section 4). */
  trialExempt?: boolean;
};

/** Whether the class is locked for this viewer at `now`; it opens at exactly its unlock time. */
export function isLocked(cls: LockableClass, viewer: LockViewer, now: Date): boolean {
  const opensAt = unlockTime(cls);
  if (!opensAt) return false;
  if (viewer.tier === 'premium') return false;
  if (viewer.trialExempt && viewer.tier === 'trial') return false;
  return now.getTime() < opensAt.getTime();
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
