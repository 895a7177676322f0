import type { Session } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';

/**
 * The session an email link signed in with. supabase-js (detectSessionInUrl) reads the tokens in
 * the URL while it initialises; `initialize()` resolves when that is done, with the error if the
 * link was bad, expired or already used.
 */
export async function waitForCallbackSession(): Promise<{ session: Session | null; error: string | null }> {
  const init = await supabase.auth.initialize();
  const { data, error } = await supabase.auth.getSession();
  return { session: data.session, error: init.error?.message ?? error?.message ?? null };
}
