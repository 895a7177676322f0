/** A roster can be marked from this long before the start (mirrors private.attendance_opens_before()). */
export const ATTENDANCE_OPENS_BEFORE_MS = 60 * 60_000;

/** When marking opens for a class starting at `startTime`. */
export function attendanceOpensAt(startTime: string): Date {
  return new Date(new Date(startTime).getTime() - ATTENDANCE_OPENS_BEFORE_MS);
}

/** From exactly one hour before the start on (inclusive, as the database says): admins and the class's coach alike. */
export function canMarkAttendance(startTime: string, now: Date): boolean {
  return now.getTime() >= attendanceOpensAt(startTime).getTime();
}

/** A no-show only once the class has started (as private.require_attendance_open says). */
export function canMarkNoShow(startTime: string, now: Date): boolean {
  return now.getTime() >= new Date(startTime).getTime();
}

/** The database's refusals that say when a mark opens: their message is shown as written. */
export const ATTENDANCE_TIMING_HINTS: readonly string[] = ['attendance_too_early', 'no_show_too_early'];
