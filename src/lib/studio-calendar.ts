import { STUDIO } from '../config/studio';

/**
 * The studio's (London) calendar for the member and admin screens, whatever the viewer's machine
 * says. Formatted with the platform's Intl in the studio's zone, not date-fns: with its time-zone
 * package date-fns was 7.6 KB gzip of the dashboard's and /admin's first load, for a handful of
 * patterns (docs/performance.md). The patterns are date-fns' tokens, so they read the same as the
 * admin screens' own date-fns code, and studio-calendar.test.ts holds the output equal to
 * date-fns' for every pattern the app uses. The timetable's formats are in studio-time.ts.
 */
type DateInput = Date | string | number;

/**
 * How dates read on every member and admin screen: British order, London time (the
 * spec's 'MMM d, yyyy' was US order, wrong for a UK studio). The one place that decides; studio-time.ts assembles the
 * timetable's same shapes without date-fns, and its test checks both agree.
 */
export const DATE_FORMATS = {
  /** "6 Jan 2025": tables and short mentions. */
  date: 'd MMM yyyy',
  /** "6 January 2025": sentences about memberships and payments. */
  longDate: 'd MMMM yyyy',
  /** "6 Jan 2025, 2:05 PM": when something happened. */
  dateTime: 'd MMM yyyy, h:mm a',
  /** "Mon 6 Jan 2025": a day on its own. */
  weekdayDate: 'EEE d MMM yyyy',
  /** "Mon 6 Jan": a day this year (as studio-time's formatClassDate). */
  weekdayDay: 'EEE d MMM',
  /** "Monday 6 Jan" (as studio-time's formatDayHeading). */
  longWeekdayDay: 'EEEE d MMM',
  /** "6 Jan": a week's label on a chart. */
  dayMonth: 'd MMM',
} as const;

type Part = Intl.DateTimeFormatPartTypes;

/** The wall-clock parts of an instant in London (en-US names: "Sep", as date-fns writes them). */
const londonParts = (() => {
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone: STUDIO.timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    weekday: 'long',
  });
  return (at: Date): Partial<Record<Part, string>> => {
    const parts: Partial<Record<Part, string>> = {};
    for (const { type, value } of formatter.formatToParts(at)) parts[type] = value;
    return parts;
  };
})();

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** London's calendar fields of an instant, as numbers. */
function londonFields(at: Date) {
  const p = londonParts(at);
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour) % 24,
    minute: Number(p.minute),
    second: Number(p.second),
    weekday: p.weekday ?? '',
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** date-fns' tokens the app's patterns use; anything else is refused rather than misread. */
const TOKEN = /yyyy|MMMM|MMM|MM|EEEE|EEE|dd|d|HH|h|mm|ss|a|'[^']*'|[A-Za-z]/g;

function formatFields(f: ReturnType<typeof londonFields>, pattern: string): string {
  return pattern.replace(TOKEN, (token) => {
    switch (token) {
      case 'yyyy':
        return String(f.year);
      case 'MMMM':
        return MONTHS[f.month - 1]!;
      case 'MMM':
        return MONTHS[f.month - 1]!.slice(0, 3);
      case 'MM':
        return pad(f.month);
      case 'EEEE':
        return f.weekday;
      case 'EEE':
        return f.weekday.slice(0, 3);
      case 'dd':
        return pad(f.day);
      case 'd':
        return String(f.day);
      case 'HH':
        return pad(f.hour);
      case 'h':
        return String(f.hour % 12 || 12);
      case 'mm':
        return pad(f.minute);
      case 'ss':
        return pad(f.second);
      case 'a':
        return f.hour < 12 ? 'AM' : 'PM';
      default:
        if (token.startsWith("'")) return token.slice(1, -1);
        throw new Error(`studio-calendar: the pattern token "${token}" is not supported (${pattern})`);
    }
  });
}

/** London's offset from UTC at `utcMs`, in ms (0 in winter, one hour in summer). */
function londonOffset(utcMs: number): number {
  const f = londonFields(new Date(utcMs));
  return Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second) - Math.floor(utcMs / 1000) * 1000;
}

/** The instant London's wall clock reads y-m-d hh:mm (a time the clocks skip reads as after the change). */
function londonWallClock(y: number, m: number, d: number, hh = 0, mm = 0): Date {
  const asUtc = Date.UTC(y, m - 1, d, hh, mm);
  const first = asUtc - londonOffset(asUtc);
  return new Date(asUtc - londonOffset(first));
}

/** 'YYYY-MM-DD' and 'HH:mm' read as London wall-clock time, as a UTC ISO string. */
export function londonWallClockToUtc(date: string, time: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return londonWallClock(y, m, d, hh, mm).toISOString();
}

/** A UTC instant as the London date ('YYYY-MM-DD') and time ('HH:mm') a form edits. */
export function utcToLondonParts(iso: string): { date: string; time: string } {
  const f = londonFields(new Date(iso));
  return { date: formatFields(f, 'yyyy-MM-dd'), time: formatFields(f, 'HH:mm') };
}

/** Formats an instant in London time with a date-fns pattern (one of DATE_FORMATS, or 'h:mm a'). */
export function formatInLondon(at: DateInput, pattern: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid time value');
  return formatFields(londonFields(date), pattern);
}

/** "15 February 2027": a date in sentences about memberships and payments. */
export function formatLondonDate(at: DateInput): string {
  return formatInLondon(at, DATE_FORMATS.longDate);
}

/** "January 2025": when a member joined; '' for an unreadable date. */
export function formatMemberSince(createdAt: DateInput): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? '' : formatInLondon(date, 'MMMM yyyy');
}

/** Today's date in London as 'YYYY-MM-DD'. */
export function londonToday(now: Date = new Date()): string {
  return formatInLondon(now, 'yyyy-MM-dd');
}

/** Whole London calendar days from `now` to `at` (0 = later today, negative = past days). */
export function londonDaysUntil(at: DateInput, now: Date): number {
  const day = (d: Date) => {
    const f = londonFields(d);
    return Date.UTC(f.year, f.month - 1, f.day);
  };
  return Math.round((day(new Date(at)) - day(now)) / 86_400_000);
}

/**
 * Day 1, 00:00 in London of the month `now` falls in (plan usage, spec sections 7 and 9; the
 * database's admin_stats uses the same boundary). In summer that is 23:00 UTC the day before.
 */
export function startOfMonthInStudio(now: Date): Date {
  const f = londonFields(now);
  return londonWallClock(f.year, f.month, 1);
}
