import { supabase } from '../supabase';

/**
 * Creates the caller's member row if it is missing (the sign-up trigger normally has). A failure
 * is only logged (spec section 4): the screens cope with a missing row.
 */
export async function ensureMember(): Promise<void> {
  const { error } = await supabase.rpc('ensure_member');
  if (error) console.warn('ensure_member failed', error.message);
}
