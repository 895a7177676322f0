import { supabase } from '@/lib/supabase';
import { ADMIN_MESSAGES } from '../messages';
import { getAdminFlag } from './get-admin-flag';

/** A refusal whose message is shown to the admin as is. */
export class AdminSignInError extends Error {}

function signInMessage(error: { message?: string; code?: string }): string {
  if (error.code === 'invalid_credentials' || error.message === 'Invalid login credentials') return ADMIN_MESSAGES.invalidCredentials;
  return error.message || ADMIN_MESSAGES.loginFailed;
}

/**
 * Signs in with email and password, then keeps the session only for an admin: without a member
 * row or with is_admin false the session is ended (spec sections 5 and 8).
 */
export async function signInAdmin(email: string, password: string): Promise<void> {
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
}
