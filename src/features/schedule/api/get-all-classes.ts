import { supabase, type ClassRow } from '@/lib/supabase';

/** Every class on the timetable in start order (/my-classes lists them all). */
export async function getAllClasses(): Promise<ClassRow[]> {
  const { data, error } = await supabase.from('classes').select('*').order('start_time', { ascending: true });
  if (error) throw error;
  return data;
}
