import { AuthClient } from '@supabase/auth-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { Database } from '../../src/lib/database.types';
import type { ServerEnv } from './server-env';
import { HttpError } from './http';

/*
 * The functions talk to Supabase with the two official sub-clients rather than supabase-js's
 * createClient, which also builds a realtime client that needs a WebSocket (absent on Node 20).
 * No session is ever persisted: every call carries its key or the member's token explicitly.
 */

/**
 * PostgREST typed by the generated contract (src/lib/database.types.ts, `npm run db:types`): a
 * renamed column, argument or result type fails `npm run typecheck` here as in the app.
 */
export type Db = PostgrestClient<Database>;

/** PostgREST as the service role: bypasses RLS; used only for the payment RPCs. */
export function serviceDb(env: ServerEnv): Db {
  return new PostgrestClient<Database>(`${env.supabaseUrl}/rest/v1`, {
    headers: { apikey: env.serviceRoleKey, Authorization: `Bearer ${env.serviceRoleKey}` },
  });
}

/** PostgREST as the signed-in member: RLS and the member's own RPC rules apply. */
export function memberDb(env: ServerEnv, accessToken: string): Db {
  return new PostgrestClient<Database>(`${env.supabaseUrl}/rest/v1`, {
    headers: { apikey: env.serviceRoleKey, Authorization: `Bearer ${accessToken}` },
  });
}

export type Caller = { userId: string; email: string | null; accessToken: string };

/** Asks Supabase Auth who holds this token (GET /auth/v1/user); a 401 unless it is a live session. */
export async function verifyCaller(env: ServerEnv, accessToken: string): Promise<Caller> {
  const auth = new AuthClient({
    url: `${env.supabaseUrl}/auth/v1`,
    headers: { apikey: env.serviceRoleKey },
    persistSession: false,
    autoRefreshToken: false,
    detectSessionInUrl: false,
  });
  const { data, error } = await auth.getUser(accessToken);
  if (error || !data.user) throw new HttpError(401, 'not_authenticated', 'Please sign in first.');
  return { userId: data.user.id, email: data.user.email ?? null, accessToken };
}

/** The member row id for an auth user, via the service role. */
export async function memberIdForUser(env: ServerEnv, userId: string): Promise<string> {
  const { data, error } = await serviceDb(env).from('members').select('id').eq('user_id', userId).maybeSingle();
  if (error) throw new Error(`members lookup failed: ${error.message}`);
  if (!data) throw new HttpError(404, 'member_not_found', 'Member not found. Please sign in again.');
  return data.id;
}
