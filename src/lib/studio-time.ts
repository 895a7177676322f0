import { STUDIO } from '../config/studio';

/**
 * The studio's (London) clock, in two modules: this one, the timetable's formats, which the
 * visitor's /schedule loads; and studio-calendar.ts, date-fns with the zone for the member and
 * admin screens (calendar days, months, form fields). Two files because a bundler splits code by
 * module, not by function: one file would put date-fns in the visitor's first download.
 * Dates are stored UTC and shown in the studio's time zone whatever the viewer's machine says,
 * in British order ("Mon 6 Jan"; the spec's US order was wrong for a UK studio).
 * The patterns live here and in studio-calendar.ts's DATE_FORMATS, nowhere else.
 * (Which classes fall on today, tomorrow or this week is the server's filter: class_schedule.)
 *
 * Formatted with the platform's Intl, one cached formatter per pattern: the timetable formats
 * every card, and date-fns' `format` with its time zone support is 7 KB gzip a visitor's
 * /schedule would download for these three patterns. The output is assembled from
 * parts so that it does not depend on the ICU version's spacing (newer ones put a narrow
 * no-break space before AM), which would make the build-time HTML differ from the browser's.
 * The names come from en-US parts ("Sep", as date-fns writes it; en-GB's ICU says "Sept"), the
 * order is British.
 */
type DateInput = Date | string | number;
type Part = Intl.DateTimeFormatPartTypes;

function studioFormatter(options: Intl.DateTimeFormatOptions) {
  const formatter = new Intl.DateTimeFormat('en-US', { timeZone: STUDIO.timeZone, ...options });
  return (value: DateInput): Partial<Record<Part, string>> => {
    const parts: Partial<Record<Part, string>> = {};
    for (const { type, value: text } of formatter.formatToParts(new Date(value))) parts[type] = text;
    return parts;
  };
}

const shortDay = studioFormatter({ weekday: 'short', month: 'short', day: 'numeric' });
const longDay = studioFormatter({ weekday: 'long', month: 'short', day: 'numeric' });
const clock = studioFormatter({ hour: 'numeric', minute: '2-digit', hour12: true });
const calendarDay = studioFormatter({ year: 'numeric', month: '2-digit', day: '2-digit' });

/** "Mon 6 Jan" */
export function formatClassDate(value: DateInput): string {
  const p = shortDay(value);
  return `${p.weekday} ${p.day} ${p.month}`;
}

/** "6:00 AM" */
export function formatClassTime(value: DateInput): string {
  const p = clock(value);
  return `${p.hour}:${p.minute} ${p.dayPeriod?.toUpperCase()}`;
}

/** "Mon 6 Jan at 6:00 AM" */
export function formatClassDateTime(value: DateInput): string {
  return `${formatClassDate(value)} at ${formatClassTime(value)}`;
}

/** "Mon": a day's short name, for the day picker. */
export function formatWeekdayShort(value: DateInput): string {
  return shortDay(value).weekday ?? '';
}

/** "6 Jan" */
export function formatMonthDay(value: DateInput): string {
  const p = shortDay(value);
  return `${p.day} ${p.month}`;
}

/** "Monday 6 Jan": a day heading on the timetable. */
export function formatDayHeading(value: DateInput): string {
  const p = longDay(value);
  return `${p.weekday} ${p.day} ${p.month}`;
}

/** "2025-01-06": the London calendar day of `value`, for grouping classes by day. */
export function studioDayKey(value: DateInput): string {
  const p = calendarDay(value);
  return `${p.year}-${p.month}-${p.day}`;
}
