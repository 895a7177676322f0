import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TZDate } from '@date-fns/tz';
import { addDays, startOfDay } from 'date-fns';
import { STUDIO } from '@/config/studio';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { markAttendance, type MarkAttendanceInput } from './mark-attendance';
import type { Attendance } from './get-class-roster';

/** One booked member on the check-in screen. */
export type CheckInEntry = { bookingId: string; name: string; email: string; attendance: Attendance | null; pending: boolean };
export type CheckInClass = { id: string; name: string; startTime: string; trainer: string; entries: CheckInEntry[] };

/** Today's London day as a UTC range [from, to). */
export function londonDayRange(now: Date): { from: string; to: string } {
  const start = startOfDay(new TZDate(now.getTime(), STUDIO.timeZone));
  return { from: new Date(start.getTime()).toISOString(), to: new Date(addDays(start, 1).getTime()).toISOString() };
}

/** Today's classes (London) with who booked each and their marks, in one read (admins read every booking). */
export async function getCheckInSheet(now: Date = new Date()): Promise<CheckInClass[]> {
  const { from, to } = londonDayRange(now);
  const { data, error } = await supabase
    .from('classes')
    .select('id, name, start_time, trainer, bookings(id, attendance, payment_status, booked_at, members(name, email))')
    .gte('start_time', from)
    .lt('start_time', to)
    .order('start_time');
  if (error) throw error;
  return data.map((c) => ({
    id: c.id,
    name: c.name,
    startTime: c.start_time,
    trainer: c.trainer,
    entries: [...c.bookings]
      .sort((a, b) => (a.members?.name ?? '').localeCompare(b.members?.name ?? ''))
      .flatMap((b) =>
        b.members
          ? [
              {
                bookingId: b.id,
                name: b.members.name || b.members.email,
                email: b.members.email,
                attendance: b.attendance,
                pending: b.payment_status === 'pending',
              },
            ]
          : [],
      ),
  }));
}

export const checkInSheetQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.admin.checkIn(), queryFn: () => getCheckInSheet(), refetchInterval: 60_000 });

export const useCheckInSheet = () => useQuery(checkInSheetQueryOptions());

/** Today's door code (admin only; made on first read). */
export async function getDoorCode(): Promise<string> {
  const { data, error } = await supabase.rpc('todays_door_code');
  if (error) throw error;
  return data;
}

export const useDoorCode = () => useQuery({ queryKey: queryKeys.admin.doorCode(), queryFn: getDoorCode, staleTime: 5 * 60_000 });

/** Checks a member in (or clears the mark) with `mark_attendance`, then rereads the sheet. */
export function useCheckInMark() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MarkAttendanceInput) => markAttendance(input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.checkIn() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.stats() }),
      ]),
  });
}
