import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from '@/lib/toast';
import { queryKeys } from '@/lib/query-keys';
import { promotedMessage } from '../lib/booking-messages';
import type { ScheduleClass } from './get-class-schedule';
import { subscribeToLiveChanges } from './subscribe-live-changes';

/** Settles the burst of row changes one booking makes (the class row, then a waitlist promotion). */
export const LIVE_REFRESH_DELAY_MS = 300;

/**
 * How old the screen's data may be when live updates start without being read again: a change
 * between a read and the channel joining is not heard, so data read longer ago than this (a join
 * delayed by a slow network, or a rejoin after the connection dropped) is read again on joining.
 */
export const LIVE_JOIN_GAP_MS = 3_000;
/** The longest live updates wait for the browser to be idle once the first reads have answered. */
const IDLE_TIMEOUT_MS = 2_000;
/** The longest live updates wait for the first reads. */
const READS_TIMEOUT_MS = 10_000;

type QueryClient = ReturnType<typeof useQueryClient>;

/**
 * Resolves once no read is in flight (the screen's first reads have answered, or failed) and then
 * the browser is idle: when live updates start to matter, and after the member's first paint.
 */
export function afterFirstReads(queryClient: QueryClient, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const idle = () => {
      if (signal.aborted) return;
      if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
      else setTimeout(resolve, 0);
    };
    if (queryClient.isFetching() === 0) return idle();
    let waiting = true;
    const done = () => {
      if (!waiting) return;
      waiting = false;
      unsubscribe();
      clearTimeout(latest);
      idle();
    };
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() === 0) done();
    });
    // A read that never ends (a hung request) does not keep live updates off.
    const latest = setTimeout(done, READS_TIMEOUT_MS);
    signal.addEventListener('abort', () => {
      waiting = false;
      unsubscribe();
      clearTimeout(latest);
    });
  });
}

/** Reads again what `keys` hold that was read more than LIVE_JOIN_GAP_MS ago. */
function readAgainIfOld(queryClient: QueryClient, keys: (readonly string[])[]): void {
  const before = Date.now() - LIVE_JOIN_GAP_MS;
  for (const queryKey of keys)
    void queryClient.invalidateQueries({
      queryKey,
      predicate: (query) => query.state.dataUpdatedAt > 0 && query.state.dataUpdatedAt < before,
    });
}

/** The schedule rows in the cache for this class (every list and detail query holding it). */
function cachedFacts(queryClient: QueryClient, classId: string): ScheduleClass[] {
  return queryClient
    .getQueriesData<InfiniteData<ScheduleClass[]> | ScheduleClass | null>({ queryKey: queryKeys.classes.all })
    .flatMap(([, data]) => (!data ? [] : 'pages' in data ? data.pages.flat() : [data]))
    .filter((cls) => cls?.id === classId);
}

/**
 * Keeps what a booking screen shows current while it is open. A class change anywhere marks the
 * schedule stale (read again once per burst); a booking of this member appearing (a waitlist place
 * turned into a booking, a hold paid) marks their bookings, waitlists and plan usage stale too, and
 * a promotion is said once.
 */
export function useLiveUpdates(memberId: string | null, enabled = true) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stale = new Set<readonly string[]>();
    const later = (...keys: (readonly string[])[]) => {
      keys.forEach((k) => stale.add(k));
      clearTimeout(timer);
      timer = setTimeout(() => {
        const keysNow = [...stale];
        stale.clear();
        for (const queryKey of keysNow) void queryClient.invalidateQueries({ queryKey });
      }, LIVE_REFRESH_DELAY_MS);
    };
    const watched = [queryKeys.classes.all, queryKeys.bookings.all, queryKeys.waitlist.all, queryKeys.planUsage.all];
    const stopWaiting = new AbortController();
    const unsubscribe = subscribeToLiveChanges(
      memberId,
      {
        onClass: () => later(queryKeys.classes.all),
        onMyBooking: (row) => {
          const waited = cachedFacts(queryClient, row.class_id).find((cls) => cls.my_waitlist_position !== null);
          if (waited) toast.success(promotedMessage(waited.name), { id: `promoted-${row.class_id}` });
          later(...watched);
        },
        onJoined: () => readAgainIfOld(queryClient, memberId ? watched : [queryKeys.classes.all]),
      },
      afterFirstReads(queryClient, stopWaiting.signal),
    );
    return () => {
      clearTimeout(timer);
      stopWaiting.abort();
      unsubscribe();
    };
  }, [enabled, memberId, queryClient]);
}
