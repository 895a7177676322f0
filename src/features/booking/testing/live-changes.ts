import type { ChangedBooking, ChangedClass } from '../api/subscribe-live-changes';

type Handlers = { onClass: (row: ChangedClass) => void; onMyBooking: (row: ChangedBooking) => void };

/** The pages' open realtime subscriptions in a screen test. */
export const liveSubscribers = new Set<Handlers>();

/**
 * Stands in for `api/subscribe-live-changes` (msw accepts the realtime socket in jsdom, but phoenix
 * never sees it open): `vi.mock('@/features/booking/api/subscribe-live-changes', async () =>
 * (await import('@/features/booking/testing/live-changes')).liveChangesModule)`.
 */
export const liveChangesModule = {
  subscribeToLiveChanges: (_memberId: string | null, handlers: Handlers) => {
    liveSubscribers.add(handlers);
    return () => liveSubscribers.delete(handlers);
  },
};

/** Realtime says a class row changed (its spots moved). */
export const announceClassChange = (row: ChangedClass) => liveSubscribers.forEach((h) => h.onClass(row));

/** Realtime says a booking of this member appeared (a promotion, a hold paid). */
export const announceMyBooking = (row: ChangedBooking) => liveSubscribers.forEach((h) => h.onMyBooking(row));
