import { supabase } from '@/lib/supabase';

/**
 * Saves name and phone (the only profile columns a member may write besides the photo). Asks for
 * the row back: a refusal by row-level security updates nothing without an error.
 */
export async function updateProfile(memberId: string, values: { name: string; phone: string }): Promise<void> {
  const { data, error } = await supabase
    .from('members')
    .update({ name: values.name.trim(), phone: values.phone.trim() || null })
    .eq('id', memberId)
    .select('id');
  if (error) throw error;
  if (!data?.length) throw new Error('Profile not updated');
}
