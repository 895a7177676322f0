import { supabase } from '@/lib/supabase';

/** Sets a new password for the signed-in user. */
export async function changePassword(password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}
