import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TZDate } from '@date-fns/tz';
import { addDays, startOfDay } from 'date-fns';
import { STUDIO } from '@/config/studio';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { markAttendance, type MarkAttendanceInput } from './mark-attendance';
import type { ClassPlace } from '@/lib/class-place';
import { getClassPlaces } from './get-class-places';

/** One place on the check-in screen: a member's, a child's or a guest's (decision 0035). */
export type CheckInEntry = Pick<ClassPlace, 'place_id' | 'kind' | 'booking_id' | 'name' | 'contact_name' | 'attendance' | 'pending'>;
export type CheckInClass = { id: string; name: string; startTime: string; trainer: string; entries: CheckInEntry[] };

/** Today's London day as a UTC range [from, to). */
export function londonDayRange(now: Date): { from: string; to: string } {
  const start = startOfDay(new TZDate(now.getTime(), STUDIO.timeZone));
  return { from: new Date(start.getTime()).toISOString(), to: new Date(addDays(start, 1).getTime()).toISOString() };
}

/** Today's classes (London) and every place in them, from the one place model (admins only). */
export async function getCheckInSheet(now: Date = new Date()): Promise<CheckInClass[]> {
  const { from, to } = londonDayRange(now);
  const { data, error } = await supabase
    .from('classes')
    .select('id, name, start_time, trainer')
    .gte('start_time', from)
    .lt('start_time', to)
    .order('start_time');
  if (error) throw error;
  const places = await getClassPlaces(data.map((c) => c.id));
  return data.map((c) => ({
    id: c.id,
    name: c.name,
    startTime: c.start_time,
    trainer: c.trainer,
    entries: places.filter((p) => p.class_id === c.id),
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
