import { supabase } from '@/lib/supabase';

/** Deletes one class (its bookings go with it); nothing deleted counts as a failure. */
export async function deleteClass(id: string): Promise<void> {
  const { data, error } = await supabase.from('classes').delete().eq('id', id).select('id');
  if (error) throw error;
  if (data.length === 0) throw new Error('Class not deleted');
}
