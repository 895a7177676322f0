import { supabase } from '@/lib/supabase';
import { callbackUrl } from './sign-up';

/** The reset email links back to the callback marked type=recovery (spec section 7). */
export function sendPasswordReset(email: string) {
  return supabase.auth.resetPasswordForEmail(email.trim(), { redirectTo: `${callbackUrl()}?type=recovery` });
}
