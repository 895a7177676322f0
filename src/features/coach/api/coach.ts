import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { classPlaceRows, type ClassPlace } from '@/lib/class-place';
import { compositeRow, compositeRows, type CompositeRow } from '@/lib/composite-row';
import type { Enums } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Tables } from '@/lib/supabase';

export type Attendance = Enums<'attendance_status'>;

/** A class the coach teaches with its counts (coach_classes). */
export type CoachClass = CompositeRow<'coach_class'>;

/** The caller's trainer record, or null when the account is not a coach's. */
export async function getMyCoachProfile(): Promise<Tables<'trainers'> | null> {
  const { data, error } = await supabase.rpc('my_coach_profile');
  if (error) throw error;
  return data[0] ?? null;
}

export const coachProfileQueryOptions = (userId: string) =>
  queryOptions({ queryKey: queryKeys.coach.profile(userId), queryFn: getMyCoachProfile, staleTime: 5 * 60_000 });

export const useCoachProfile = (userId: string | null) => useQuery({ ...coachProfileQueryOptions(userId ?? ''), enabled: userId !== null });

/** Today's and the next two weeks' classes the coach teaches (London days). */
export async function getCoachClasses(): Promise<CoachClass[]> {
  const { data, error } = await supabase.rpc('coach_classes', { p_days: 14 });
  if (error) throw error;
  return compositeRows<'coach_class'>(data);
}

export const useCoachClasses = (enabled: boolean) =>
  useQuery({ queryKey: queryKeys.coach.classes(), queryFn: getCoachClasses, enabled, refetchInterval: 60_000 });

/**
 * A class's places (decision 0035: members, children and guests, each with their own health
 * answers; no emails): the database refuses a class the caller does not coach (not_your_class).
 */
export async function getCoachRoster(classId: string): Promise<ClassPlace[]> {
  const { data, error } = await supabase.rpc('coach_class_roster', { p_class_id: classId });
  if (error) throw error;
  return classPlaceRows(data);
}

export const useCoachRoster = (classId: string) =>
  useQuery({ queryKey: queryKeys.coach.roster(classId), queryFn: () => getCoachRoster(classId), refetchInterval: 60_000, retry: false });

export type CoachMarkInput = { classId: string; placeId: string; status: Attendance | null };

/** Checks a member in (or clears the mark) with coach_mark_attendance: the same rules as an admin's. */
export async function coachMarkAttendance({ placeId, status }: CoachMarkInput): Promise<Attendance | null> {
  // The generated types cannot say an argument may be null; the function takes null to clear.
  const { data, error } = await supabase.rpc('coach_mark_attendance', { p_booking_id: placeId, p_status: status as string });
  if (error) throw error;
  return compositeRow<'attendance_mark', 'booking_id'>(data).attendance ?? null;
}

/** Writes the mark, puts the answer into the cached roster, then rereads the counts. */
export function useCoachMark() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: coachMarkAttendance,
    onSuccess: (attendance, { classId, placeId }) => {
      queryClient.setQueryData<ClassPlace[]>(queryKeys.coach.roster(classId), (rows) =>
        rows?.map((r) => (r.place_id === placeId ? { ...r, attendance } : r)),
      );
      return queryClient.invalidateQueries({ queryKey: queryKeys.coach.classes() });
    },
  });
}
