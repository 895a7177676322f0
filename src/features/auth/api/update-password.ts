import { supabase } from '@/lib/supabase';

export function updatePassword(password: string) {
  return supabase.auth.updateUser({ password });
}
