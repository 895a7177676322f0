import { supabase, type ClassRow } from '@/lib/supabase';

/** Class ids are uuids; anything else cannot name a class (and PostgREST would answer 400). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isClassId(value: string): boolean {
  return UUID.test(value);
}

/** One class for the booking form; null when there is no such class or the id is malformed (no request then). */
export async function getClassById(classId: string): Promise<ClassRow | null> {
  if (!isClassId(classId)) return null;
  const { data, error } = await supabase.from('classes').select('*').eq('id', classId).maybeSingle();
  if (error) throw error;
  return data;
}
