import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { ClassPlace } from '@/lib/class-place';
import type { Attendance } from './get-class-places';

export type MarkAttendanceInput = { classId: string; placeId: string; status: Attendance | null };

/**
 * Marks a place (a booking's or a guest's, by its id) attended or no-show (null clears) through the
 * admin-only `mark_attendance`, whose argument keeps its old name p_booking_id.
 */
export async function markAttendance({ placeId, status }: MarkAttendanceInput): Promise<Attendance | null> {
  // The generated types cannot say an argument may be null; the function takes null to clear.
  const { data, error } = await supabase.rpc('mark_attendance', { p_booking_id: placeId, p_status: status as string });
  if (error) throw error;
  return data.attendance;
}

/** Writes the mark, then puts the server's answer into the cached roster (no second read). */
export function useMarkAttendance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAttendance,
    onSuccess: (attendance, { classId, placeId }) => {
      queryClient.setQueryData<ClassPlace[]>(queryKeys.admin.roster(classId), (rows) =>
        rows?.map((r) => (r.place_id === placeId ? { ...r, attendance } : r)),
      );
      return queryClient.invalidateQueries({ queryKey: queryKeys.admin.stats() });
    },
  });
}
