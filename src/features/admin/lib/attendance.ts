import type { Attendance } from '../api/get-class-places';

export { ATTENDANCE_OPENS_BEFORE_MS, attendanceOpensAt, canMarkAttendance } from '@/lib/rules/attendance-window';

export const ATTENDANCE_LABELS: Record<Attendance, string> = { attended: 'Attended', no_show: 'No-show' };

export type RosterCounts = { booked: number; attended: number; noShow: number; unmarked: number };

export function rosterCounts(entries: readonly { attendance: Attendance | null }[]): RosterCounts {
  const attended = entries.filter((e) => e.attendance === 'attended').length;
  const noShow = entries.filter((e) => e.attendance === 'no_show').length;
  return { booked: entries.length, attended, noShow, unmarked: entries.length - attended - noShow };
}
