import { supabase } from '@/lib/supabase';

/** Where confirmation links land: /auth/callback stores the session and ensures the member row. */
export function callbackUrl(): string {
  return `${window.location.origin}/auth/callback`;
}

/**
 * Email/password sign-up. The database trigger makes the member row: payg by default, or a
 * 7-day trial when `signupSource` is 'free-trial'.
 */
export function signUp(input: { email: string; password: string; fullName?: string; signupSource?: 'free-trial' }) {
  const data: Record<string, string> = {};
  if (input.fullName?.trim()) data.full_name = input.fullName.trim();
  if (input.signupSource) data.signup_source = input.signupSource;
  return supabase.auth.signUp({
    email: input.email.trim(),
    password: input.password,
    options: { data, emailRedirectTo: callbackUrl() },
  });
}
