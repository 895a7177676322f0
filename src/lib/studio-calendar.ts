import { TZDate, tz } from '@date-fns/tz';
import { differenceInCalendarDays, format, startOfMonth } from 'date-fns';
import { STUDIO } from '../config/studio';

/**
 * The studio's (London) calendar for the member and admin screens: date-fns with the studio's
 * zone, whatever the viewer's machine says. The timetable's formats are in studio-time.ts, which
 * the visitor path loads without date-fns.
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

/** 'YYYY-MM-DD' and 'HH:mm' read as London wall-clock time, as a UTC ISO string. */
export function londonWallClockToUtc(date: string, time: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(new TZDate(y, m - 1, d, hh, mm, STUDIO.timeZone).getTime()).toISOString();
}

/** A UTC instant as the London date ('YYYY-MM-DD') and time ('HH:mm') a form edits. */
export function utcToLondonParts(iso: string): { date: string; time: string } {
  const local = new TZDate(iso, STUDIO.timeZone);
  return { date: format(local, 'yyyy-MM-dd'), time: format(local, 'HH:mm') };
}

/** Formats an instant in London time with a date-fns pattern (one of DATE_FORMATS, or 'h:mm a'). */
export function formatInLondon(at: DateInput, pattern: string): string {
  return format(new Date(at), pattern, { in: tz(STUDIO.timeZone) });
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
  return differenceInCalendarDays(new Date(at), now, { in: tz(STUDIO.timeZone) });
}

/**
 * Day 1, 00:00 in London of the month `now` falls in (plan usage, spec sections 7 and 9; the
 * database's admin_stats uses the same boundary). In summer that is 23:00 UTC the day before.
 */
export function startOfMonthInStudio(now: Date): Date {
  return new Date(startOfMonth(new TZDate(now.getTime(), STUDIO.timeZone)).getTime());
}
