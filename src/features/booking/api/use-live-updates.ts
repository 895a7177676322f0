import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from '@/lib/toast';
import { queryKeys } from '@/lib/query-keys';
import { promotedMessage } from '../lib/booking-messages';
import type { ScheduleClass } from './get-class-schedule';
import { subscribeToLiveChanges } from './subscribe-live-changes';

/** Settles the burst of row changes one booking makes (the class row, then a waitlist promotion). */
export const LIVE_REFRESH_DELAY_MS = 300;

/** The schedule rows in the cache for this class (every list and detail query holding it). */
function cachedFacts(queryClient: ReturnType<typeof useQueryClient>, classId: string): ScheduleClass[] {
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
    const unsubscribe = subscribeToLiveChanges(memberId, {
      onClass: () => later(queryKeys.classes.all),
      onMyBooking: (row) => {
        const waited = cachedFacts(queryClient, row.class_id).find((cls) => cls.my_waitlist_position !== null);
        if (waited) toast.success(promotedMessage(waited.name), { id: `promoted-${row.class_id}` });
        later(queryKeys.classes.all, queryKeys.bookings.all, queryKeys.waitlist.all, queryKeys.planUsage.all);
      },
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [enabled, memberId, queryClient]);
}
