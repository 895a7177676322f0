import { queryOptions, useQuery } from '@tanstack/react-query';
import { classPlaceRows, type ClassPlace } from '@/lib/class-place';
import type { Enums } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

export type Attendance = Enums<'attendance_status'>;

/**
 * Every place of the given classes (admin_class_places, decision 0035): members, children and
 * guests, each with the person in it, their contacts, documents and health answers; one class's
 * places together, account holders first with the people they brought.
 */
export async function getClassPlaces(classIds: readonly string[]): Promise<ClassPlace[]> {
  if (classIds.length === 0) return [];
  const { data, error } = await supabase.rpc('admin_class_places', { p_class_ids: [...classIds] });
  if (error) throw error;
  return classPlaceRows(data);
}

/** One class's places: its roster and its printable register read the same answer. */
export const classPlacesQueryOptions = (classId: string) =>
  queryOptions({ queryKey: queryKeys.admin.roster(classId), queryFn: () => getClassPlaces([classId]) });

export const useClassPlaces = (classId: string) => useQuery(classPlacesQueryOptions(classId));
