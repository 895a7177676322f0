import { createContext, useContext } from 'react';
import type { Session, User } from '@supabase/supabase-js';
import type { Member } from '../supabase';

export type AuthState = {
  /** True until the stored session has been read; guards render nothing decisive before then. */
  loading: boolean;
  /**
   * The signed-in session. While `loading`, the session stored on this device when the member's
   * saved copy has been painted (decision 0111): screens may render with it, but decisions (sending a
   * visitor to sign in, the admin check) wait for `loading` to end.
   */
  session: Session | null;
  user: User | null;
  /** The signed-in user's member row (null while loading, signed out, or if it does not exist). */
  member: Member | null;
  memberLoading: boolean;
  /** Re-reads the member row (after a booking changed the tier, a profile edit, ...). */
  refreshMember: () => Promise<Member | null>;
  signOut: () => Promise<void>;
  /** The session ended by this person's own Log Out (not expiry): guards send them home, not to /signin?redirect=. */
  signedOut: boolean;
};

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}
