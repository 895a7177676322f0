import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ensureMember } from '@/lib/auth/ensure-member';
import { emailSchema, passwordSchema } from '@/lib/auth/password-rules';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** Sign-in (spec section 5): email required and of email type, password required, at least 6 characters. */
export const signInSchema = z.object({ email: emailSchema, password: passwordSchema });
export type SignInInput = z.infer<typeof signInSchema>;

/**
 * Signs in with email and password, then makes sure the member row exists (a failure is only
 * logged). Answers whether the account is a coach's (decision 0027): a coach lands on /coach.
 */
export async function signIn(input: SignInInput): Promise<{ coach: boolean }> {
  const { email, password } = signInSchema.parse(input);
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  await ensureMember();
  const coach = await supabase.rpc('my_coach_profile');
  return { coach: !coach.error && coach.data.length > 0 };
}

/** A new session: whatever was cached for a previous visitor is for someone else. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: signIn, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.member.all }) });
}
