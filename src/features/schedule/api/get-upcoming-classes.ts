import { supabase, type ClassRow } from '@/lib/supabase';

/** Classes starting now or later, soonest first (/schedule and /my-schedule). */
export async function getUpcomingClasses(now: Date = new Date()): Promise<ClassRow[]> {
  const { data, error } = await supabase.from('classes').select('*').gte('start_time', now.toISOString()).order('start_time', { ascending: true });
  if (error) throw error;
  return data;
}
