import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { CREDENTIAL_MESSAGES, emailSchema } from '@/lib/auth/password-rules';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { ADMIN_MESSAGES } from '../lib/messages';
import { getAdminFlag } from './get-admin-flag';

/** Admin sign-in (spec section 5): email and password required. */
export const adminSignInSchema = z.object({ email: emailSchema, password: z.string().min(1, CREDENTIAL_MESSAGES.passwordRequired) });
export type AdminSignIn = z.infer<typeof adminSignInSchema>;

/** A refusal whose message is shown to the admin as is. */
export class AdminSignInError extends Error {}

function signInMessage(error: { message?: string; code?: string }): string {
  if (error.code === 'invalid_credentials' || error.message === 'Invalid login credentials') return ADMIN_MESSAGES.invalidCredentials;
  return error.message || ADMIN_MESSAGES.loginFailed;
}

/**
 * Signs in with email and password, then keeps the session only for an admin: without a member
 * row or with is_admin false the session is ended (spec sections 5 and 8). Resolves to the email.
 */
export async function signInAdmin(input: AdminSignIn): Promise<string> {
  const { email, password } = adminSignInSchema.parse(input);
  const { data, error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw new AdminSignInError(signInMessage(error));
  const signedInEmail = data.user?.email ?? email;

  let isAdmin: boolean | null;
  try {
    isAdmin = await getAdminFlag(signedInEmail);
  } catch (lookupError) {
    await supabase.auth.signOut();
    throw new AdminSignInError((lookupError as { message?: string }).message || ADMIN_MESSAGES.loginFailed);
  }
  if (isAdmin === null) {
    await supabase.auth.signOut();
    throw new AdminSignInError(ADMIN_MESSAGES.noMemberRecord);
  }
  if (!isAdmin) {
    await supabase.auth.signOut();
    throw new AdminSignInError(ADMIN_MESSAGES.notAdmin);
  }
  return signedInEmail;
}

/** The check the sign-in made is what the admin guard asks next: cache it rather than ask twice. */
export function useSignInAdmin() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: signInAdmin, onSuccess: (email) => queryClient.setQueryData(queryKeys.admin.flag(email), true) });
}
