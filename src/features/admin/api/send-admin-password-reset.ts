import { isAuthApiError } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';
import { ADMIN_MESSAGES } from '../messages';

/** The server's own words for a refusal it explains (a rate limit, a bad address); else the spec's fallback. */
export function resetErrorMessage(error: unknown): string {
  if (isAuthApiError(error) && error.status < 500 && error.message) return error.message;
  return ADMIN_MESSAGES.resetFailed;
}

/** Emails a reset link that returns to the callback as a recovery (spec section 7). */
export async function sendAdminPasswordReset(email: string): Promise<void> {
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: `${window.location.origin}/auth/callback?type=recovery`,
  });
  if (error) throw error;
}
