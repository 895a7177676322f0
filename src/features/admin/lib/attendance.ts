import type { Attendance, RosterEntry } from '../api/get-class-roster';

/** A roster can be marked from this long before the start (mirrors private.attendance_opens_before()). */
export const ATTENDANCE_OPENS_BEFORE_MS = 60 * 60_000;

export const ATTENDANCE_LABELS: Record<Attendance, string> = { attended: 'Attended', no_show: 'No-show' };

/** When marking opens for a class starting at `startTime`. */
export function attendanceOpensAt(startTime: string): Date {
  return new Date(new Date(startTime).getTime() - ATTENDANCE_OPENS_BEFORE_MS);
}

/** From exactly one hour before the start on (inclusive, as the database says). */
export function canMarkAttendance(startTime: string, now: Date): boolean {
  return now.getTime() >= attendanceOpensAt(startTime).getTime();
}

export type RosterCounts = { booked: number; attended: number; noShow: number; unmarked: number };

export function rosterCounts(entries: readonly Pick<RosterEntry, 'attendance'>[]): RosterCounts {
  const attended = entries.filter((e) => e.attendance === 'attended').length;
  const noShow = entries.filter((e) => e.attendance === 'no_show').length;
  return { booked: entries.length, attended, noShow, unmarked: entries.length - attended - noShow };
}
