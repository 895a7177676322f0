import { londonWallClockToUtc } from '@/lib/studio-calendar';

export const REPEAT_OPTIONS = ['none', 'daily', 'weekly', 'monthly'] as const;
export type Repeat = (typeof REPEAT_OPTIONS)[number];

export const REPEAT_LABELS: Record<Repeat, string> = { none: 'None', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

/** More occurrences than this in one submission is almost certainly a mistyped end date. */
export const MAX_OCCURRENCES = 366;

type CalendarDate = { y: number; m: number; d: number };

function parseDate(value: string): CalendarDate {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  return { y, m, d };
}

function toKey({ y, m, d }: CalendarDate): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Calendar arithmetic on plain dates (UTC carries no DST), so every step is a whole day. */
function addDays(date: CalendarDate, days: number): CalendarDate {
  const t = new Date(Date.UTC(date.y, date.m - 1, date.d + days));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** The same day of month `months` later, clamped to the month's last day (31 Jan -> 28/29 Feb -> 31 Mar). */
function addMonthsClamped(start: CalendarDate, months: number): CalendarDate {
  const index = start.m - 1 + months;
  const y = start.y + Math.floor(index / 12);
  const m = (((index % 12) + 12) % 12) + 1;
  return { y, m, d: Math.min(start.d, daysInMonth(y, m)) };
}

/**
 * The London calendar dates ('YYYY-MM-DD') of a class and its repeats, from `startDate` up to
 * and including `until`. With repeat 'none' (or no end date) it is the start date alone.
 */
export function occurrenceDates(startDate: string, repeat: Repeat, until?: string | null): string[] {
  if (repeat === 'none' || !until) return [startDate];
  const start = parseDate(startDate);
  const dates: string[] = [];
  // Stop one past the cap so callers can tell "too many" from "exactly the cap".
  for (let k = 0; dates.length <= MAX_OCCURRENCES; k += 1) {
    const next = repeat === 'daily' ? addDays(start, k) : repeat === 'weekly' ? addDays(start, 7 * k) : addMonthsClamped(start, k);
    const key = toKey(next);
    if (key > until) break;
    dates.push(key);
  }
  return dates;
}

/**
 * The UTC start times of every occurrence: each is the same London wall-clock time, so a
 * 06:00 class stays at 06:00 across the clock changes.
 */
export function occurrenceStartTimes(startDate: string, time: string, repeat: Repeat, until?: string | null): string[] {
  return occurrenceDates(startDate, repeat, until).map((date) => londonWallClockToUtc(date, time));
}
