import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../database.types';
import type { Member } from '../supabase';
import { queryKeys } from '../query-keys';
import { loadSupabase, needsSupabaseNow, whenSupabaseLoaded } from '../supabase-loader';
import { clearStoredSession, rememberEmail } from '../browser-storage';
import { AuthContext, type AuthState } from './auth-context';
import { markPasswordRecovery } from './auth-redirect';

async function fetchOwnMember(userId: string): Promise<Member | null> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('members').select('*').eq('user_id', userId).maybeSingle();
  if (error) throw error;
  return data;
}

/** The stored session is read once per render; nothing announces its changes (sign-in goes through the client). */
const subscribeToNothing = () => () => undefined;

export function AuthProvider({ children }: { children: ReactNode }) {
  // Without a stored session there is nothing to wait for: a signed-out visitor renders at once.
  // A prerendered page was rendered for a visitor, so hydration starts from that (the server
  // snapshot) and a stored session switches to loading right after, without a mismatch.
  const storedSession = useSyncExternalStore(subscribeToNothing, needsSupabaseNow, () => false);
  const [settled, setSettled] = useState(false);
  const loading = storedSession && !settled;
  const [session, setSession] = useState<Session | null>(null);
  useEffect(() => {
    let active = true;
    let unsubscribe = () => undefined as void;
    const track = (supabase: SupabaseClient<Database>) => {
      if (!active) return;
      void supabase.auth.getSession().then(({ data }) => {
        if (!active) return;
        setSession(data.session);
        setSettled(true);
      });
      const { data: sub } = supabase.auth.onAuthStateChange((event, next) => {
        if (event === 'PASSWORD_RECOVERY') markPasswordRecovery();
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

  const queryClient = useQueryClient();
  const userId = session?.user.id ?? null;
  // The signed-in user's member row, cached per user (so another user's row is never shown).
  // Loaded here rather than in Supabase's auth callback, which must not await other Supabase calls.
  const memberQuery = useQuery({
    queryKey: queryKeys.member.own(userId ?? ''),
    queryFn: () => fetchOwnMember(userId ?? ''),
    enabled: userId !== null,
  });
  // A failed read counts as no row: the screens cope with a missing member.
  const member = userId ? (memberQuery.data ?? null) : null;
  const memberLoading = userId !== null && memberQuery.isPending;

  const refreshMember = useCallback(async () => {
    if (!userId) return null;
    return queryClient.fetchQuery({ queryKey: queryKeys.member.own(userId), queryFn: () => fetchOwnMember(userId), staleTime: 0 });
  }, [userId, queryClient]);

  const signOut = useCallback(async () => {
    const supabase = await loadSupabase();
    const { error } = await supabase.auth.signOut();
    clearStoredSession();
    // Everything cached was read as this user: the next one on this browser must not see it.
    queryClient.clear();
    if (error) throw error;
  }, [queryClient]);

  const value = useMemo<AuthState>(
    () => ({ loading, session, user: session?.user ?? null, member, memberLoading, refreshMember, signOut }),
    [loading, session, member, memberLoading, refreshMember, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
