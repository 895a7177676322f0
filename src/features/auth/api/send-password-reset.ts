import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { emailSchema } from '@/lib/auth/password-rules';
import { supabase } from '@/lib/supabase';
import { callbackUrl } from './sign-up';

/** Reset Password: an email is required. */
export const passwordResetSchema = z.object({ email: emailSchema });
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;

/** The reset email links back to the callback marked type=recovery (spec section 7). */
export async function sendPasswordReset(input: PasswordResetInput): Promise<void> {
  const { email } = passwordResetSchema.parse(input);
  const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: `${callbackUrl()}?type=recovery` });
  if (error) throw error;
}

export const useSendPasswordReset = () => useMutation({ mutationFn: sendPasswordReset });
