import type { QueryClient } from '@tanstack/react-query';
import { loadAppQueryClient } from '@/lib/app-query-client';
import { offerRestoredSession } from '@/lib/auth/restored-session';
import { ownMemberQuery } from '@/lib/auth/own-member';
import { storedSessionUser } from '@/lib/supabase-loader';
import { restoreSnapshot } from './offline-snapshot';

const storedUserId = () => storedSessionUser()?.id ?? null;

/**
 * The app opened with no connection by a signed-in member (src/main.tsx, before the first render):
 * the member's saved copy goes into the cache before any screen asks for it (offline-snapshot.ts),
 * and TanStack Query learns it is offline, so screens show the copy and wait instead of failing.
 * Its online manager assumes a connection until an `offline` event, which a page that starts
 * offline never gets: the client is mounted now (which makes the manager listen; the provider's
 * own mount later only counts up) and the event is announced. Importing `onlineManager` here
 * instead would split it out of the query chunks into one more file on a visitor's /schedule.
 */
export async function startOffline(): Promise<void> {
  const client = await loadAppQueryClient();
  client.mount();
  window.dispatchEvent(new Event('offline'));
  const userId = storedUserId();
  if (userId && restoreSnapshot(client, userId) > 0) offerRestoredSession(userId);
}

/**
 * A signed-in member opening the app online (src/main.tsx, alongside the first screen's code):
 * the saved copy goes into the cache so the screen paints from it at once, and each query, as old
 * as it was read, revalidates as its screen mounts (decision 0028). What a read has
 * already brought is newer and stays. The member row, which every member screen waits for, is
 * asked for now, in parallel with the screen's code, rather than once the auth provider has
 * rendered with the session.
 */
export async function paintFromCopy(client?: QueryClient): Promise<void> {
  client ??= await loadAppQueryClient();
  const userId = storedUserId();
  if (!userId) return;
  // With the copy in, the screens need not wait for GoTrue to confirm the session (decision 0111).
  if (restoreSnapshot(client, userId, undefined, { revalidate: true }) > 0) offerRestoredSession(userId);
  void client.prefetchQuery({ ...ownMemberQuery(userId), staleTime: 0 });
}
