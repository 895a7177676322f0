import { loadRealtime } from '@/lib/supabase-loader';

let channelCount = 0;

export type ChangedClass = { id: string; name: string };
export type ChangedBooking = { class_id: string };

/** Whether `row` has a string in each of `keys` (checked by hand: zod stays off the member's first screen). */
const hasStrings = <K extends string>(row: unknown, keys: readonly K[]): row is Record<K, string> =>
  typeof row === 'object' && row !== null && keys.every((key) => typeof (row as Record<string, unknown>)[key] === 'string');

/** Calls `handle` with the row when it has the expected shape (RLS may send only a key). */
const parsed =
  <K extends string>(keys: readonly K[], handle: (row: Record<K, string>) => void) =>
  (payload: { new: unknown }) => {
    if (hasStrings(payload.new, keys)) handle(payload.new);
  };

/**
 * Realtime (postgres_changes, RLS applies): `onClass` hears every changed class row (a booking or
 * a cancellation anywhere moves its spots); `onMyBooking` hears new or changed bookings of this
 * member (a waitlist promotion, a hold paid); `onJoined` is called once the channel listens.
 * Realtime is loaded once `ready` resolves (decision 0110: after the screen's first reads, when the
 * browser is idle), never before the first paint. Returns the unsubscribe function.
 */
export function subscribeToLiveChanges(
  memberId: string | null,
  handlers: { onClass: (row: ChangedClass) => void; onMyBooking: (row: ChangedBooking) => void; onJoined?: () => void },
  ready: Promise<void> = Promise.resolve(),
): () => void {
  channelCount += 1;
  const name = `booking-live-${channelCount}`;
  let stopped = false;
  let stop = () => undefined as void;
  void ready.then(async () => {
    if (stopped) return;
    const realtime = await loadRealtime();
    if (stopped) return;
    let channel = realtime
      .channel(name)
      .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'classes' }, parsed(['id', 'name'], handlers.onClass));
    if (memberId) {
      const filter = `member_id=eq.${memberId}`;
      for (const event of ['INSERT', 'UPDATE'] as const) {
        channel = channel.on(
          'postgres_changes',
          { event, schema: 'public', table: 'bookings', filter },
          parsed(['class_id'], handlers.onMyBooking),
        );
      }
    }
    channel.subscribe((status) => {
      // As a string: the enum's value would import realtime-js with the screen.
      if (String(status) === 'SUBSCRIBED') handlers.onJoined?.();
    });
    stop = () => void realtime.removeChannel(channel);
  });
  return () => {
    stopped = true;
    stop();
  };
}
