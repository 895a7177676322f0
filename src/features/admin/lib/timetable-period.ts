import { addDays, addWeeks, differenceInCalendarDays, format, nextMonday, parseISO } from 'date-fns';
import { londonToday } from '@/lib/studio-calendar';

/** The coming weeks the generator fills by default, and the longest period the RPC accepts. */
export const DEFAULT_TIMETABLE_WEEKS = 8;
export const MAX_TIMETABLE_DAYS = 366;

/** From the next Monday (London) for eight weeks, ending on a Sunday. */
export function defaultTimetablePeriod(now: Date = new Date()): { start: string; end: string } {
  const start = nextMonday(parseISO(londonToday(now)));
  return { start: format(start, 'yyyy-MM-dd'), end: format(addDays(addWeeks(start, DEFAULT_TIMETABLE_WEEKS), -1), 'yyyy-MM-dd') };
}

/** Why a period cannot be generated, or null when it can. */
export function timetablePeriodError(start: string, end: string): string | null {
  if (!start || !end) return 'Choose a start and an end date';
  if (end < start) return 'The end date must not be before the start date';
  if (differenceInCalendarDays(parseISO(end), parseISO(start)) > MAX_TIMETABLE_DAYS)
    return `Choose a period of at most ${MAX_TIMETABLE_DAYS} days`;
  return null;
}
