import type { Session } from '@supabase/auth-js';
import type { RealtimeClient } from '@supabase/realtime-js';
import type { StorageClient } from '@supabase/storage-js';
import { env } from './env';
import type { StudioClient } from './supabase';

/**
 * The Supabase client (lib/supabase.ts: auth-js and postgrest-js, ~30 KB gzipped): a first-time visitor's home page should not pay for it. The
 * auth provider loads the client only when a session is stored, when the URL carries auth
 * tokens, or as soon as any screen imports `./supabase` itself (that module announces itself
 * here), so sign-in state is always tracked once the client exists.
 */
type Client = StudioClient;
let announced: Client | null = null;
const listeners = new Set<(client: Client) => void>();

export function announceSupabase(client: Client): void {
  announced = client;
  listeners.forEach((listener) => listener(client));
  listeners.clear();
}

/** Calls `listener` with the client once it exists (at once if it already does). Returns an unsubscribe. */
export function whenSupabaseLoaded(listener: (client: Client) => void): () => void {
  if (announced) {
    listener(announced);
    return () => undefined;
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether supabase-js is loaded already (a screen needed it, or a session was found). */
export function supabaseLoaded(): boolean {
  return announced !== null;
}

export function loadSupabase(): Promise<Client> {
  return import('./supabase').then((m) => m.supabase);
}

/** Supabase Realtime on the client's session, for a screen that subscribes (decision 0028). */
export function loadRealtime(): Promise<RealtimeClient> {
  return import('./supabase-realtime').then((m) => m.realtime);
}

/** Supabase Storage on the client's session, for the screen that uploads (decision 0028). */
export function loadStorage(): Promise<StorageClient> {
  return import('./supabase-storage').then((m) => m.storage);
}

/** supabase-js's default storage key: `sb-<first label of the API host>-auth-token`. */
export function sessionStorageKey(url: string = env.supabaseUrl): string {
  return `sb-${new URL(url).hostname.split('.')[0]}-auth-token`;
}

/** Whether the client is needed right away: a stored session, or auth tokens/codes in the URL. */
export function needsSupabaseNow(storage: Storage = localStorage, location: Location = window.location): boolean {
  if (storage.getItem(sessionStorageKey()) !== null) return true;
  return /(access_token|refresh_token|error_description)=/.test(location.hash) || /[?&](code|token_hash)=/.test(location.search);
}

/**
 * supabase-js's stored session as it was saved (its tokens may have expired since), read without
 * loading the client. Null when none is stored or it is not a session.
 */
export function storedSession(storage: Storage = localStorage): Session | null {
  try {
    const stored = JSON.parse(storage.getItem(sessionStorageKey()) ?? 'null') as Partial<Session> | null;
    if (typeof stored?.access_token !== 'string' || typeof stored.user?.id !== 'string') return null;
    return stored as Session;
  } catch {
    return null;
  }
}

/**
 * The user of supabase-js's stored session (its id and email), read without loading the client:
 * what boot code needs to start a signed-in screen's first requests early. Null when none is stored.
 */
export function storedSessionUser(storage: Storage = localStorage): { id: string; email: string | null } | null {
  const user = storedSession(storage)?.user;
  if (!user) return null;
  return { id: user.id, email: typeof user.email === 'string' ? user.email : null };
}
