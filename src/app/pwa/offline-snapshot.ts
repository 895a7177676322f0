import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { clearOfflineSnapshot, readOfflineSnapshot, saveOfflineSnapshot } from '@/lib/browser-storage';

/**
 * The member's own data as last read, kept in localStorage so that their pages read offline
 * (decision 0019) and a second visit paints at once (decision 0028): TanStack
 * Query's cache, written out after each successful read and put back into the cache when the app
 * starts (then revalidated: each read is as old as it was) or loses its connection. Only the member's
 * own resources are kept (their row, bookings, the timetable as they see it, plan usage, credits,
 * waitlist places, membership, profile, where their documents stand), under their user id; Log Out removes the copy
 * (lib/browser-storage.ts clearStoredSession).
 */

/** The first part of the query keys kept (lib/query-keys.ts). Admin screens, payments and email preferences are not. */
const KEPT = new Set(['member', 'bookings', 'classes', 'waitlist', 'plan-usage', 'credits', 'membership', 'profile']);
/**
 * Of the member's documents, only where they stand (queryKeys.documents.mineStatus, no texts):
 * the dashboard shows it. Their health answers and the documents' texts are not kept.
 */
const isDocumentStatus = (queryKey: QueryKey): boolean => queryKey[0] === 'documents' && queryKey[1] === 'mine' && queryKey[3] === 'status';
/**
 * The copy belongs to one build of the app (a hash of its sources, vite.config.ts): a deployment
 * that reads or shapes data differently never paints a copy an older one wrote.
 */
const VERSION = `2:${(import.meta.env.VITE_CACHE_BUSTER as string | undefined) ?? 'dev'}`;
/** A copy older than this is not shown: classes and bookings will have moved on. */
const MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** Writes wait for reads that arrive together (a screen's few queries) to land. */
const SAVE_DELAY_MS = 500;

type Entry = { queryKey: QueryKey; data: unknown; dataUpdatedAt: number };
type Snapshot = { version: string; userId: string; savedAt: number; entries: Entry[] };

export const isKept = (queryKey: QueryKey): boolean =>
  (typeof queryKey[0] === 'string' && KEPT.has(queryKey[0])) || isDocumentStatus(queryKey);

const keptQuery = (query: Query) => isKept(query.queryKey) && query.state.status === 'success' && query.state.data !== undefined;

/** JSON that keeps Dates (My Bookings' `startsAt`) as Dates. */
const DATE_TAG = '$date';
function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  return raw instanceof Date ? { [DATE_TAG]: raw.toISOString() } : value;
}
function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && DATE_TAG in value && Object.keys(value).length === 1)
    return new Date((value as Record<string, string>)[DATE_TAG]!);
  return value;
}

export function serializeSnapshot(client: QueryClient, userId: string, now = Date.now()): string {
  const entries: Entry[] = client
    .getQueryCache()
    .getAll()
    .filter(keptQuery)
    .map((query) => ({ queryKey: query.queryKey, data: query.state.data, dataUpdatedAt: query.state.dataUpdatedAt }));
  return JSON.stringify({ version: VERSION, userId, savedAt: now, entries } satisfies Snapshot, replacer);
}

export function parseSnapshot(text: string | null, userId: string, now = Date.now()): Snapshot | null {
  if (!text) return null;
  try {
    const snapshot = JSON.parse(text, reviver) as Snapshot;
    if (snapshot.version !== VERSION || snapshot.userId !== userId || !Array.isArray(snapshot.entries)) return null;
    if (now - snapshot.savedAt > MAX_AGE_MS) return null;
    return snapshot;
  } catch {
    return null;
  }
}

/**
 * The queries the saved copy filled in this page load, with the read time the copy gave them: a
 * query still at that time still shows the copy (copyRefreshState).
 */
const filledFromCopy = new Map<string, number>();

/**
 * Puts the saved copy into the cache where it holds nothing yet (what is in memory is newer),
 * with the time each was read, so that screens show it as it was and refetch once they can.
 * Returns how many queries it filled.
 */
export function restoreSnapshot(
  client: QueryClient,
  userId: string,
  text: string | null = readOfflineSnapshot(),
  { revalidate = false }: { revalidate?: boolean } = {},
): number {
  const snapshot = parseSnapshot(text, userId);
  if (!snapshot) return 0;
  let filled = 0;
  for (const { queryKey, data, dataUpdatedAt } of snapshot.entries) {
    if (!isKept(queryKey) || client.getQueryData(queryKey) !== undefined) continue;
    client.setQueryData(queryKey, data, { updatedAt: dataUpdatedAt });
    const hash = client.getQueryCache().find({ queryKey, exact: true })?.queryHash;
    if (hash) filledFromCopy.set(hash, dataUpdatedAt);
    // Online, a copy from an earlier page load is only something to paint: however recent, its
    // screen reads again when it mounts (a booking made just before a reload is not in it).
    if (revalidate) void client.invalidateQueries({ queryKey, exact: true, refetchType: 'none' });
    filled += 1;
  }
  return filled;
}

/**
 * Where the screen on show stands with the saved copy it painted from (decision 0062), from the
 * queries it observes: `updating` while some still hold the copy and are being (or about to be)
 * read again, `updated` once every one the copy filled has been read again, null when the screen
 * did not paint from the copy, or when its reads cannot arrive (offline, or failed: the offline
 * banner or the error message speaks then).
 */
export function copyRefreshState(client: QueryClient): 'updating' | 'updated' | null {
  let painted = false;
  let waiting = false;
  for (const query of client.getQueryCache().getAll()) {
    const copiedAt = filledFromCopy.get(query.queryHash);
    if (copiedAt === undefined || query.getObserversCount() === 0) continue;
    painted = true;
    if (query.state.dataUpdatedAt !== copiedAt) continue;
    if (query.state.fetchStatus === 'paused' || query.state.fetchFailureCount > 0) return null;
    waiting = true;
  }
  return waiting ? 'updating' : painted ? 'updated' : null;
}

/** Forgets which queries the copy filled (a test's new page load). */
export function forgetCopyFills(): void {
  filledFromCopy.clear();
}

/**
 * When the member's data was last read from the studio: the newest read among the kept queries
 * in the cache (what the offline banner says), or null if none.
 */
export function lastReadAt(client: QueryClient): number | null {
  const times = client
    .getQueryCache()
    .getAll()
    .filter(keptQuery)
    .map((query) => query.state.dataUpdatedAt);
  return times.length ? Math.max(...times) : null;
}

/**
 * Keeps the copy up to date while the member uses the app: after reads that succeed, online.
 * `onSaved` runs after each save (the page's own copy, page-copy.ts). Returns a stop.
 */
export function keepSnapshot(client: QueryClient, userId: string, onSaved?: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    timer = undefined;
    if (!navigator.onLine) return; // nothing new arrives offline; the last copy stays as it was
    if (!saveOfflineSnapshot(serializeSnapshot(client, userId))) clearOfflineSnapshot();
    else onSaved?.();
  };
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || !isKept(event.query.queryKey as QueryKey)) return;
    timer ??= setTimeout(save, SAVE_DELAY_MS);
  });
  return () => {
    unsubscribe();
    if (timer !== undefined) clearTimeout(timer);
  };
}
