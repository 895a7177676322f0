import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { Attendance } from './get-class-places';

/** How many of a member's latest bookings the record lists. */
export const MEMBER_ATTENDANCE_SHOWN = 50;

export type MemberAttendanceEntry = {
  bookingId: string;
  className: string;
  startTime: string;
  attendance: Attendance | null;
  markedAt: string | null;
};
export type MemberAttendance = { attended: number; noShows: number; entries: MemberAttendanceEntry[] };

const countMarked = async (memberId: string, attendance: Attendance) => {
  const { count, error } = await supabase
    .from('bookings')
    .select('id', { count: 'exact', head: true })
    .eq('member_id', memberId)
    .eq('attendance', attendance);
  if (error) throw error;
  return count ?? 0;
};

/** A member's latest bookings with their attendance marks (the no-show job's among them), and their totals. */
export async function getMemberAttendance(memberId: string): Promise<MemberAttendance> {
  const [list, attended, noShows] = await Promise.all([
    supabase
      .from('bookings')
      .select('id, attendance, attendance_marked_at, classes!inner(name, start_time)')
      .eq('member_id', memberId)
      .order('booked_at', { ascending: false })
      .limit(MEMBER_ATTENDANCE_SHOWN),
    countMarked(memberId, 'attended'),
    countMarked(memberId, 'no_show'),
  ]);
  if (list.error) throw list.error;
  const entries = list.data
    .map((b) => ({
      bookingId: b.id,
      className: b.classes.name,
      startTime: b.classes.start_time,
      attendance: b.attendance,
      markedAt: b.attendance_marked_at,
    }))
    .sort((a, b) => b.startTime.localeCompare(a.startTime));
  return { attended, noShows, entries };
}

export const memberAttendanceQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.admin.memberAttendance(memberId), queryFn: () => getMemberAttendance(memberId) });

export const useMemberAttendance = (memberId: string) => useQuery(memberAttendanceQueryOptions(memberId));
