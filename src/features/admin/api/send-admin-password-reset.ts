import { supabase } from '@/lib/supabase';

/** Emails a reset link that returns to the callback as a recovery (spec section 7). */
export async function sendAdminPasswordReset(email: string): Promise<void> {
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: `${window.location.origin}/auth/callback?type=recovery`,
  });
  if (error) throw error;
}
