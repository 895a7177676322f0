import { createClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import { env } from './env';
import { announceSupabase } from './supabase-loader';

/**
 * The one typed Supabase client of the SPA. Only the public (anon) key ever reaches the browser.
 * PKCE: confirmation and recovery links carry a one-time code that only this browser (holding
 * the verifier) can exchange, so a link someone else crafted cannot sign a member in elsewhere.
 */
export const supabase = createClient<Database>(env.supabaseUrl, env.supabaseAnonKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, flowType: 'pkce' },
});
announceSupabase(supabase);

export type Tables<T extends keyof Database['public']['Tables']> = Database['public']['Tables'][T]['Row'];
export type Member = Tables<'members'>;
export type ClassRow = Tables<'classes'>;
export type Booking = Tables<'bookings'>;
