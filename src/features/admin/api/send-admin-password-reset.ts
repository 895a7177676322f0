import { useMutation } from '@tanstack/react-query';
import { isAuthApiError } from '@supabase/auth-js';
import { z } from 'zod';
import { paths } from '@/config/paths';
import { emailSchema } from '@/lib/auth/password-rules';
import { supabase } from '@/lib/supabase';
import { ADMIN_MESSAGES } from '../lib/messages';

/** The reset view's one field: the email is required (spec section 5). */
export const adminResetSchema = z.object({ email: emailSchema });
export type AdminReset = z.infer<typeof adminResetSchema>;

/** The server's own words for a refusal it explains (a rate limit, a bad address); else the spec's fallback. */
export function resetErrorMessage(error: unknown): string {
  if (isAuthApiError(error) && error.status < 500 && error.message) return error.message;
  return ADMIN_MESSAGES.resetFailed;
}

/** Emails a reset link that returns to the callback as a recovery (spec section 7). */
export async function sendAdminPasswordReset(input: AdminReset): Promise<void> {
  const { email } = adminResetSchema.parse(input);
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: `${window.location.origin}${paths.authCallback}?type=recovery`,
  });
  if (error) throw error;
}

export const useSendAdminPasswordReset = () => useMutation({ mutationFn: sendAdminPasswordReset });
