import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { paths } from '@/config/paths';
import { ensureMember } from '@/lib/auth/ensure-member';
import { emailSchema, passwordSchema } from '@/lib/auth/password-rules';
import { MEMBER_NAME_MAX_LENGTH } from '@/lib/rules/member-name';
import { supabase } from '@/lib/supabase';

/** An account's name takes at most MEMBER_NAME_MAX_LENGTH characters (members.name; Edit Profile says the same). */
const fullName = z.string().trim().max(MEMBER_NAME_MAX_LENGTH, `Your name is too long (at most ${MEMBER_NAME_MAX_LENGTH} characters)`);
/** Create Account: full name optional, then the sign-in rules (spec section 5). */
export const signUpSchema = z.object({
  fullName,
  email: emailSchema,
  password: passwordSchema,
  // The unticked "news and offers" choice (src/config/consent.ts); the database records it.
  marketingOptIn: z.boolean().default(false),
});
/** The free-trial sign-up: full name, email and password all required. */
export const trialSignUpSchema = signUpSchema.extend({ fullName: fullName.min(1, 'Full name is required') });
export type SignUpInput = z.input<typeof signUpSchema>;

/** Where confirmation links land: /auth/callback stores the session and ensures the member row. */
export function callbackUrl(): string {
  return `${window.location.origin}${paths.authCallback}`;
}

export type SignUpSource = 'signin' | 'free-trial';

/**
 * Email/password sign-up. The database trigger makes the member row: payg by default, or a
 * 7-day trial when the account comes from the free-trial page (and the email never had one).
 * Resolves to whether the account is signed in now (the server returned a session) or must
 * confirm its email first, or that the email already has an account: Supabase answers an
 * already confirmed address with a user without identities (or, without email confirmation,
 * `user_already_exists`), and sends nothing. That is all it tells anyone; we tell no more.
 */
export async function signUp({
  source,
  ...input
}: SignUpInput & { source: SignUpSource }): Promise<{ signedIn: boolean; existingAccount: boolean }> {
  const { fullName, email, password, marketingOptIn } = (source === 'free-trial' ? trialSignUpSchema : signUpSchema).parse(input);
  // The member row's trigger records the choice with its words and time (marketing_consents).
  const data: Record<string, string> = { marketing_opt_in: marketingOptIn ? 'true' : 'false' };
  if (fullName) data.full_name = fullName;
  if (source === 'free-trial') data.signup_source = 'free-trial';
  const { data: result, error } = await supabase.auth.signUp({ email, password, options: { data, emailRedirectTo: callbackUrl() } });
  if (error?.code === 'user_already_exists' && source === 'free-trial') return { signedIn: false, existingAccount: true };
  if (error) throw error;
  if (!result.session) return { signedIn: false, existingAccount: result.user?.identities?.length === 0 };
  await ensureMember();
  return { signedIn: true, existingAccount: false };
}

export const useSignUp = () => useMutation({ mutationFn: signUp });
