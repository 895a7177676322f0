import { supabase } from '@/lib/supabase';

export function signInWithPassword(email: string, password: string) {
  return supabase.auth.signInWithPassword({ email: email.trim(), password });
}
