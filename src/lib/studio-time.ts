import { addDays, endOfWeek, format, startOfDay, startOfWeek } from 'date-fns';
import { tz } from '@date-fns/tz';
import { STUDIO } from '@/config/studio';

/**
 * Dates are stored UTC and shown in the studio's time zone whatever the viewer's machine says.
 * Weeks start on Sunday (spec section 9).
 */
const inStudio = tz(STUDIO.timeZone);
const WEEK_STARTS_ON = 0;

type DateInput = Date | string | number;

/** "Mon, Jan 6" */
export function formatClassDate(value: DateInput): string {
  return format(new Date(value), 'EEE, MMM d', { in: inStudio });
}

/** "6:00 AM" */
export function formatClassTime(value: DateInput): string {
  return format(new Date(value), 'h:mm a', { in: inStudio });
}

/** "Mon, Jan 6 at 6:00 AM" */
export function formatClassDateTime(value: DateInput): string {
  return `${formatClassDate(value)} at ${formatClassTime(value)}`;
}

/** date-fns returns zoned TZDate values; ranges hold plain instants. */
function plain(value: Date): Date {
  return new Date(value.getTime());
}

export type DayRange = { start: Date; end: Date };

/** Today in London: [midnight, next midnight). */
export function todayRange(now: Date): DayRange {
  const start = startOfDay(now, { in: inStudio });
  return { start: plain(start), end: plain(startOfDay(addDays(start, 1, { in: inStudio }), { in: inStudio })) };
}

/** Tomorrow in London. */
export function tomorrowRange(now: Date): DayRange {
  return todayRange(addDays(startOfDay(now, { in: inStudio }), 1, { in: inStudio }));
}

/** This week in London, Sunday 00:00 up to the next Sunday 00:00. */
export function thisWeekRange(now: Date): DayRange {
  const start = startOfWeek(now, { in: inStudio, weekStartsOn: WEEK_STARTS_ON });
  const last = endOfWeek(now, { in: inStudio, weekStartsOn: WEEK_STARTS_ON });
  return { start: plain(start), end: new Date(last.getTime() + 1) };
}

export function isWithin(value: DateInput, range: DayRange): boolean {
  const t = new Date(value).getTime();
  return t >= range.start.getTime() && t < range.end.getTime();
}

/** "Monday, Jan 6": a day heading on the timetable. */
export function formatDayHeading(value: DateInput): string {
  return format(new Date(value), 'EEEE, MMM d', { in: inStudio });
}

/** London midnight starting the day of `value`. */
export function startOfStudioDay(value: DateInput): Date {
  return plain(startOfDay(new Date(value), { in: inStudio }));
}

/** London midnight `days` days after the day of `value` (23 or 25 hours away across a clock change). */
export function studioDayAfter(value: DateInput, days: number): Date {
  return plain(startOfDay(addDays(startOfDay(new Date(value), { in: inStudio }), days, { in: inStudio }), { in: inStudio }));
}
