import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type ClassRow } from '@/lib/supabase';

/** One class by id (admins read every class), or null when there is none. */
export async function getClass(classId: string): Promise<ClassRow | null> {
  const { data, error } = await supabase.from('classes').select('*').eq('id', classId).maybeSingle();
  if (error) throw error;
  return data;
}

export const classQueryOptions = (classId: string) =>
  queryOptions({ queryKey: queryKeys.admin.class(classId), queryFn: () => getClass(classId) });

export const useClass = (classId: string) => useQuery(classQueryOptions(classId));
