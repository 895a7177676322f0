import type { AuthError, Session } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';

/**
 * The session an email link of the PKCE code flow signed in with (or one already stored).
 * supabase-js (detectSessionInUrl) exchanges the URL's `?code=` while it initialises, if this
 * browser holds the code verifier; `initialize()` resolves when that is done, with the error if
 * the link was bad, expired or already used.
 */
export async function waitForCallbackSession(): Promise<{ session: Session | null; error: AuthError | null }> {
  const init = await supabase.auth.initialize();
  const { data, error } = await supabase.auth.getSession();
  return { session: data.session, error: init.error ?? error ?? null };
}
