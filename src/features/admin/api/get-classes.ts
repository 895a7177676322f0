import { supabase, type ClassRow } from '@/lib/supabase';
import { ADMIN_MESSAGES } from '../messages';
import { useResource } from '../hooks/use-resource';

/** Every class, soonest first, for Classes Management. */
export async function getClasses(): Promise<ClassRow[]> {
  const { data, error } = await supabase.from('classes').select('*').order('start_time', { ascending: true });
  if (error) throw error;
  return data;
}

export function useClasses() {
  return useResource(getClasses, ADMIN_MESSAGES.classesLoadFailed);
}
