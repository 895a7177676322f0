import { RealtimeClient } from '@supabase/realtime-js';
import { accessToken, apiUrl, CLIENT_HEADERS, fetchWithAuth, supabase } from './supabase';

/**
 * Supabase Realtime for the screens that subscribe (live spots, a waitlist promotion): loaded with
 * them rather than on every member's first screen (decision 0028). Set up as supabase-js
 * sets up its own (SupabaseClient 2.109: _initRealtimeClient, _listenForAuthEvents), on the one
 * session of lib/supabase.ts, so row-level security sees the signed-in member.
 */
export const realtime = new RealtimeClient(apiUrl('realtime').replace(/^http/, 'ws'), {
  headers: CLIENT_HEADERS,
  accessToken,
  fetch: fetchWithAuth,
  params: { apikey: supabase.apiKey },
});

// A session restored from storage brings INITIAL_SESSION, never SIGNED_IN: take its token now, or
// channels join as anon and row-level security hides the member's own rows from them.
void realtime.setAuth();

let currentToken: string | undefined;
supabase.auth.onAuthStateChange((event, session) => {
  if ((event === 'TOKEN_REFRESHED' || event === 'SIGNED_IN') && currentToken !== session?.access_token) {
    currentToken = session?.access_token;
    void realtime.setAuth(currentToken);
  } else if (event === 'SIGNED_OUT') {
    void realtime.setAuth();
    currentToken = undefined;
  }
});
