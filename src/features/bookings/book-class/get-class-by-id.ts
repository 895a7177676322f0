import { supabase, type ClassRow } from '@/lib/supabase';

/** One class for the booking form; null when there is no such class (or the id is malformed). */
export async function getClassById(classId: string): Promise<ClassRow | null> {
  const { data, error } = await supabase.from('classes').select('*').eq('id', classId).maybeSingle();
  if (error) throw error;
  return data;
}
