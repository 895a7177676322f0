import { AuthClient } from '@supabase/auth-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { Database } from './database.types';
import { env } from './env';
import { announceSupabase, sessionStorageKey } from './supabase-loader';

/**
 * The one typed Supabase client of the SPA, built from the two parts every signed-in screen needs:
 * GoTrue (@supabase/auth-js) and PostgREST (@supabase/postgrest-js), as supabase-js builds them
 * (its SupabaseClient, 2.109). supabase-js itself would bring realtime, storage and functions as
 * well, about half of its 50 KB gzip, on a member's first screen (decision 0028):
 * realtime (supabase-realtime.ts) and storage (supabase-storage.ts) load with the screens that
 * use them and share this client's session. Only the public (anon) key ever reaches the browser.
 * PKCE: confirmation and recovery links carry a one-time code that only this browser (holding
 * the verifier) can exchange, so a link someone else crafted cannot sign a member in elsewhere.
 */
const API_URL = env.supabaseUrl.replace(/\/+$/, '');
const API_KEY = env.supabaseAnonKey;
/** What supabase-js names itself with; the gateway's CORS rules allow the header. */
export const CLIENT_HEADERS: Record<string, string> = { 'X-Client-Info': 'supabase-js-parts/2.109.0' };
/**
 * GoTrue, realtime and storage at the project's address. PostgREST is `env.restUrl`, the site's
 * own origin (decision 0060): GoTrue's per-address limits must see the member's address, and a
 * websocket cannot go through Netlify's rewrite.
 */
export const apiUrl = (service: 'auth' | 'realtime' | 'storage') => `${API_URL}/${service}/v1`;

const auth = new AuthClient({
  url: apiUrl('auth'),
  headers: { Authorization: `Bearer ${API_KEY}`, apikey: API_KEY, ...CLIENT_HEADERS },
  // supabase-js's default key: a session stored before this change is still found.
  storageKey: sessionStorageKey(),
  persistSession: true,
  autoRefreshToken: true,
  detectSessionInUrl: true,
  flowType: 'pkce',
});

/** The signed-in user's token, or the anon key (supabase-js's _getAccessToken). */
export async function accessToken(): Promise<string> {
  const { data } = await auth.getSession();
  return data.session?.access_token ?? API_KEY;
}

/** fetch with the key and the user's token, unless the request names its own (supabase-js's fetchWithAuth). */
export const fetchWithAuth: typeof fetch = async (input, init) => {
  const headers = new Headers(init?.headers);
  if (!headers.has('apikey')) headers.set('apikey', API_KEY);
  if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${await accessToken()}`);
  return fetch(input, { ...init, headers });
};

const rest = new PostgrestClient<Database>(env.restUrl, { headers: CLIENT_HEADERS, schema: 'public', fetch: fetchWithAuth });
/**
 * PostgREST at the project's own address, for the one call whose limit counts the caller's address
 * (Contact Us: `private.request_client_address`): through the site's rewrite the database would
 * see the proxy's address, and one limit would be shared by every visitor.
 */
const directRest = new PostgrestClient<Database>(env.directRestUrl, { headers: CLIENT_HEADERS, schema: 'public', fetch: fetchWithAuth });

/** supabase-js's `auth`, `from`, `rpc` and `schema`, typed by the generated Database. */
export const supabase = {
  auth,
  from: rest.from.bind(rest),
  rpc: rest.rpc.bind(rest),
  schema: rest.schema.bind(rest),
  /** `rpc` straight to the project, not through the site (see directRest). */
  directRpc: directRest.rpc.bind(directRest),
  apiKey: API_KEY,
};
export type StudioClient = typeof supabase;
announceSupabase(supabase);

export type Tables<T extends keyof Database['public']['Tables']> = Database['public']['Tables'][T]['Row'];
export type Member = Tables<'members'>;
export type ClassRow = Tables<'classes'>;
export type Booking = Tables<'bookings'>;
