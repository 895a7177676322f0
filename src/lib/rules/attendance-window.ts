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
