import { PostgrestClient } from '@supabase/postgrest-js';
import type { Database } from './database.types';
import { env } from './env';
import { loadSupabase, needsSupabaseNow, supabaseLoaded } from './supabase-loader';

/**
 * PostgREST as a visitor (the anon key) with postgrest-js alone: what a guest's /schedule reads
 * with, without supabase-js's auth and realtime (issue 17). Same requests, same error shapes.
 */
const visitorApi = new PostgrestClient<Database>(`${env.supabaseUrl}/rest/v1`, {
  headers: { apikey: env.supabaseAnonKey, Authorization: `Bearer ${env.supabaseAnonKey}` },
  // The global fetch of the moment of each call (postgrest-js would keep the one it saw at start).
  fetch: (...args) => fetch(...args),
});

type PublicFunction = 'class_schedule' | 'class_schedule_summary';
type Args<F extends PublicFunction> = Database['public']['Functions'][F]['Args'];

/**
 * Calls a function anyone may call: as the member once a session exists (or supabase-js is loaded
 * anyway), so the answer carries their facts; else as a visitor with the light client.
 */
export async function publicRpc<F extends PublicFunction>(fn: F, args: Args<F>) {
  if (needsSupabaseNow() || supabaseLoaded()) return (await loadSupabase()).rpc(fn, args);
  return visitorApi.rpc(fn, args);
}
