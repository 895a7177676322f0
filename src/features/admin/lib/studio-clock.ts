import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { STUDIO } from '@/config/studio';

/**
 * Studio wall-clock helpers for the admin portal. Class times are stored in UTC and read and
 * written as Europe/London wall-clock time, whatever the admin's machine says.
 * (src/lib/studio-time.ts, from the member screens, covers display for members; these add the
 * form's date + time parts in both directions.)
 */

/** 'YYYY-MM-DD' and 'HH:mm' read as London wall-clock time, as a UTC ISO string. */
export function londonWallClockToUtc(date: string, time: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(new TZDate(y, m - 1, d, hh, mm, STUDIO.timeZone).getTime()).toISOString();
}

/** A UTC instant as the London date ('YYYY-MM-DD') and time ('HH:mm') the form edits. */
export function utcToLondonParts(iso: string): { date: string; time: string } {
  const local = new TZDate(iso, STUDIO.timeZone);
  return { date: format(local, 'yyyy-MM-dd'), time: format(local, 'HH:mm') };
}

/** Formats an instant in London time with a date-fns pattern ('MMM d, yyyy', 'h:mm a'). */
export function formatInLondon(iso: string, pattern: string): string {
  return format(new TZDate(iso, STUDIO.timeZone), pattern);
}

/** Today's date in London as 'YYYY-MM-DD'. */
export function londonToday(now: Date = new Date()): string {
  return format(new TZDate(now.getTime(), STUDIO.timeZone), 'yyyy-MM-dd');
}
