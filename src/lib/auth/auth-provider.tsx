import { useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClientContext } from '@tanstack/react-query';
import type { Session } from '@supabase/supabase-js';
import type { StudioClient } from '../supabase';
import { loadAppQueryClient } from '../app-query-client';
import { loadSupabase, needsSupabaseNow, whenSupabaseLoaded } from '../supabase-loader';
import { clearStoredSession, rememberEmail } from '../browser-storage';
import { AuthContext, type AuthState } from './auth-context';
import { ACCOUNT_REMOVED_MESSAGE } from './account-messages';
import { markPasswordRecovery } from './auth-redirect';
import type { OwnMemberState } from './observe-own-member';
import { restoredSession, subscribeToRestoredSession } from './restored-session';

/** GoTrue's answer for a session whose user was deleted: 403 user_not_found ("User from sub claim in JWT does not exist"). */
const isUserGone = (error: { status?: number; code?: string }) =>
  error.code === 'user_not_found' || error.status === 403 || error.status === 404;

/** The stored session is read once per render; nothing announces its changes (sign-in goes through the client). */
const subscribeToNothing = () => () => undefined;

export function AuthProvider({ children }: { children: ReactNode }) {
  // Without a stored session there is nothing to wait for: a signed-out visitor renders at once.
  // A prerendered page was rendered for a visitor, so hydration starts from that (the server
  // snapshot) and a stored session switches to loading right after, without a mismatch.
  const storedSession = useSyncExternalStore(subscribeToNothing, needsSupabaseNow, () => false);
  const [settled, setSettled] = useState(false);
  const loading = storedSession && !settled;
  const [confirmedSession, setSession] = useState<Session | null>(null);
  // Until GoTrue has answered, the session stored on this device once the member's saved copy is
  // in the cache (decision 0111): their page paints from the copy instead of waiting. Once it has
  // answered, only its answer counts.
  const restored = useSyncExternalStore(subscribeToRestoredSession, restoredSession, () => null);
  const session = loading ? (confirmedSession ?? restored) : confirmedSession;
  // Set before the session goes, so the member page that is open sends them home rather than to
  // a sign-in URL that would bring the next person on this browser back to it. Cleared
  // by the next sign-in, not by the session still being there while GoTrue is asked to end it.
  const [signedOut, setSignedOut] = useState(false);
  useEffect(() => {
    let active = true;
    let unsubscribe = () => undefined as void;
    const track = (supabase: StudioClient) => {
      if (!active) return;
      void supabase.auth.getSession().then(({ data }) => {
        if (!active) return;
        setSession(data.session);
        setSettled(true);
      });
      const { data: sub } = supabase.auth.onAuthStateChange((event, next) => {
        if (event === 'PASSWORD_RECOVERY') markPasswordRecovery();
        if (event === 'SIGNED_IN') setSignedOut(false);
        setSession(next);
        setSettled(true);
        if (next?.user.email) rememberEmail(next.user.email);
      });
      unsubscribe = () => sub.subscription.unsubscribe();
    };
    const stopWaiting = whenSupabaseLoaded(track);
    // Otherwise the client is tracked as soon as a screen loads it.
    if (needsSupabaseNow()) void loadSupabase();
    return () => {
      active = false;
      stopWaiting();
      unsubscribe();
    };
  }, []);

  // The page's query client, if a screen has brought it yet. A session brings it otherwise: the
  // provider then hands it down and this effect runs again, with one observer per user.
  const contextClient = useContext(QueryClientContext);
  const userId = session?.user.id ?? null;
  const [ownMember, setOwnMember] = useState<OwnMemberState & { userId: string }>();
  useEffect(() => {
    if (!userId) return;
    if (!contextClient) {
      void loadAppQueryClient();
      return;
    }
    let active = true;
    let stop: (() => void) | undefined;
    void import('./observe-own-member').then(({ observeOwnMember }) => {
      if (active) stop = observeOwnMember(contextClient, userId, (state) => setOwnMember({ ...state, userId }));
    });
    return () => {
      active = false;
      stop?.();
    };
  }, [userId, contextClient]);
  const current = ownMember?.userId === userId ? ownMember : undefined;
  const member = userId ? (current?.member ?? null) : null;
  const memberLoading = userId !== null && !current?.settled;

  const refreshMember = useCallback(async () => {
    if (!userId) return null;
    const [client, { ownMemberQuery }] = await Promise.all([contextClient ?? loadAppQueryClient(), import('./own-member')]);
    return client.fetchQuery({ ...ownMemberQuery(userId), staleTime: 0 });
  }, [userId, contextClient]);

  const signOut = useCallback(async () => {
    setSignedOut(true);
    const supabase = await loadSupabase();
    const { error } = await supabase.auth.signOut();
    clearStoredSession();
    // Everything cached was read as this user: the next one on this browser must not see it.
    contextClient?.clear();
    if (error) {
      setSignedOut(false);
      throw error;
    }
  }, [contextClient]);

  // A member deleted while their tab is open (or who comes back to it) has a session whose user is
  // gone: without a member row, ask GoTrue once whether the user still exists, and if not sign them
  // out with a message instead of leaving the page on "Failed to load".
  const rowMissing = userId !== null && current?.settled === true && member === null;
  useEffect(() => {
    if (!rowMissing) return;
    let active = true;
    void (async () => {
      const supabase = await loadSupabase();
      const { error } = await supabase.auth.getUser();
      if (!active || !error || !isUserGone(error)) return;
      const { toast } = await import('../toast');
      toast.error(ACCOUNT_REMOVED_MESSAGE, { id: 'account-removed' });
      await signOut().catch(() => undefined);
    })();
    return () => {
      active = false;
    };
  }, [rowMissing, signOut]);

  const value = useMemo<AuthState>(
    () => ({ loading, session, user: session?.user ?? null, member, memberLoading, refreshMember, signOut, signedOut }),
    [loading, session, member, memberLoading, refreshMember, signOut, signedOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
