import { supabase, type ClassRow } from '@/lib/supabase';
import { studioDayAfter } from '@/lib/studio-time';

/** The timetable is read a week at a time (whole London days), so no screen reads the whole table. */
export const WINDOW_DAYS = 7;
/** Most rows one window may return; a busier week ends early and the next window resumes there. */
export const WINDOW_LIMIT = 200;

export type ClassWindow = {
  classes: ClassRow[];
  /** Where the next window starts (exclusive end of this one). */
  until: Date;
  /** Whether any class starts at or after `until`. */
  hasMore: boolean;
};

async function classesBetween(from: Date, until: Date): Promise<ClassRow[]> {
  const { data, error } = await supabase
    .from('classes')
    .select('*')
    .gte('start_time', from.toISOString())
    .lt('start_time', until.toISOString())
    .order('start_time', { ascending: true })
    .limit(WINDOW_LIMIT);
  if (error) throw error;
  return data;
}

async function nextClassStart(from: Date): Promise<string | null> {
  const { data, error } = await supabase.from('classes').select('start_time').gte('start_time', from.toISOString()).order('start_time', { ascending: true }).limit(1);
  if (error) throw error;
  return data[0]?.start_time ?? null;
}

/**
 * Classes starting from `from` up to the end of the WINDOW_DAYS-th London day, soonest first, with
 * whether more follow (two bounded requests in parallel). A window with no class jumps once to the
 * day of the next class, so a quiet week does not look like an empty timetable.
 */
export async function getClassWindow(from: Date, skipEmpty = true): Promise<ClassWindow> {
  const until = studioDayAfter(from, WINDOW_DAYS);
  const [rows, next] = await Promise.all([classesBetween(from, until), nextClassStart(until)]);
  if (rows.length === 0 && next && skipEmpty) return getClassWindow(studioDayAfter(next, 0), false);
  if (rows.length < WINDOW_LIMIT) return { classes: rows, until, hasMore: next !== null };
  // Truncated: resume at the last start time, leaving its (possibly partial) group to the next window.
  const last = rows[rows.length - 1]!.start_time;
  const whole = rows.filter((c) => c.start_time !== last);
  if (whole.length === 0) return { classes: rows, until: new Date(new Date(last).getTime() + 1), hasMore: true };
  return { classes: whole, until: new Date(last), hasMore: true };
}
