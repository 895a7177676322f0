import type { Session } from '@supabase/auth-js';
import { storedSession } from '../supabase-loader';

/*
 * The session stored on this device, offered to the screens while GoTrue confirms it (decision
 * 0111). A returning member's page then paints from their saved copy at once instead of after
 * auth-js has loaded, read the session and (an hour after the last visit) refreshed it at GoTrue.
 * Only offered once the copy of that same user has been put into the cache: without it there is
 * nothing to paint, and a screen would only show its loading state a moment earlier. Decisions
 * (where a signed-out visitor goes, the admin check) still wait for the confirmed session.
 */

let offered: Session | null = null;
const listeners = new Set<() => void>();

/** The app's copy of `userId`'s data is in the cache: offer their stored session, if it is still theirs. */
export function offerRestoredSession(userId: string, storage: Storage = localStorage): void {
  const stored = storedSession(storage);
  if (stored?.user.id !== userId || offered?.user.id === userId) return;
  offered = stored;
  listeners.forEach((listener) => listener());
}

/** What the auth provider reads (useSyncExternalStore). */
export const restoredSession = (): Session | null => offered;

export function subscribeToRestoredSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Withdraws the offer (a test's new page load; the session turned out to be gone). */
export function forgetRestoredSession(): void {
  offered = null;
  listeners.forEach((listener) => listener());
}
