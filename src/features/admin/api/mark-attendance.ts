import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { ClassPlace } from '@/lib/class-place';
import type { Attendance } from './get-class-places';

export type MarkAttendanceInput = { classId: string; bookingId: string; status: Attendance | null };

/** Marks a booking attended or no-show (null clears) through the admin-only `mark_attendance`. */
export async function markAttendance({ bookingId, status }: MarkAttendanceInput): Promise<Attendance | null> {
  // The generated types cannot say an argument may be null; the function takes null to clear.
  const { data, error } = await supabase.rpc('mark_attendance', { p_booking_id: bookingId, p_status: status as string });
  if (error) throw error;
  return data.attendance;
}

/** Writes the mark, then puts the server's answer into the cached roster (no second read). */
export function useMarkAttendance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAttendance,
    onSuccess: (attendance, { classId, bookingId }) => {
      queryClient.setQueryData<ClassPlace[]>(queryKeys.admin.roster(classId), (rows) =>
        rows?.map((r) => (r.kind !== 'guest' && r.booking_id === bookingId ? { ...r, attendance } : r)),
      );
      return queryClient.invalidateQueries({ queryKey: queryKeys.admin.stats() });
    },
  });
}
