import { supabase } from '../supabase';

/**
 * Creates the caller's member row if it is missing (the sign-up trigger normally has), and answers
 * its membership tier (null when that failed). A failure is only logged (spec section 4): the
 * screens cope with a missing row.
 */
export async function ensureMember(): Promise<{ membershipTier: string } | null> {
  const { data, error } = await supabase.rpc('ensure_member');
  if (error) console.warn('ensure_member failed', error.message);
  return data?.membership_tier ? { membershipTier: data.membership_tier } : null;
}
