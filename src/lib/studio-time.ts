import { format, startOfDay } from 'date-fns';
import { tz } from '@date-fns/tz';
import { STUDIO } from '@/config/studio';

/**
 * Dates are stored UTC and shown in the studio's time zone whatever the viewer's machine says.
 * (Which classes fall on today, tomorrow or this week is the server's filter: class_schedule.)
 */
const inStudio = tz(STUDIO.timeZone);

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

/** "Monday, Jan 6": a day heading on the timetable. */
export function formatDayHeading(value: DateInput): string {
  return format(new Date(value), 'EEEE, MMM d', { in: inStudio });
}

/** London midnight starting the day of `value`. */
export function startOfStudioDay(value: DateInput): Date {
  return plain(startOfDay(new Date(value), { in: inStudio }));
}
