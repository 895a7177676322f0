import type { Attendance } from '../api/get-class-places';

import { ATTENDANCE_TIMING_HINTS } from '@/lib/rules/attendance-window';
import { ADMIN_MESSAGES } from './messages';

export { ATTENDANCE_OPENS_BEFORE_MS, attendanceOpensAt, canMarkAttendance, canMarkNoShow } from '@/lib/rules/attendance-window';

/** What a refused mark says: the database's own words when it is too early, otherwise a retry message. */
export function attendanceRefusal(error: Error & { hint?: string }): string {
  return error.hint && ATTENDANCE_TIMING_HINTS.includes(error.hint) ? error.message : ADMIN_MESSAGES.attendanceFailed;
}

export const ATTENDANCE_LABELS: Record<Attendance, string> = { attended: 'Attended', no_show: 'No-show' };

export type RosterCounts = { booked: number; attended: number; noShow: number; unmarked: number };

export function rosterCounts(entries: readonly { attendance: Attendance | null }[]): RosterCounts {
  const attended = entries.filter((e) => e.attendance === 'attended').length;
  const noShow = entries.filter((e) => e.attendance === 'no_show').length;
  return { booked: entries.length, attended, noShow, unmarked: entries.length - attended - noShow };
}
