import { supabase } from '@/lib/supabase';
import type { ClassInsert } from '../utils/class-form';

/** Creates every occurrence of a class in ONE request (a repeating class is a list of rows). */
export async function createClasses(rows: ClassInsert[]): Promise<number> {
  const { data, error } = await supabase.from('classes').insert(rows).select('id');
  if (error) throw error;
  return data.length;
}

/** Updates one class by id; a row hidden by the database's rules counts as a failure. */
export async function updateClass(id: string, row: ClassInsert): Promise<void> {
  const { data, error } = await supabase.from('classes').update(row).eq('id', id).select('id');
  if (error) throw error;
  if (data.length === 0) throw new Error('Class not updated');
}
