import { z } from 'zod/mini';
import { loadSupabase } from '@/lib/supabase-loader';

let channelCount = 0;

const changedClassSchema = z.object({ id: z.string(), name: z.string() });
const changedBookingSchema = z.object({ class_id: z.string() });
export type ChangedClass = z.infer<typeof changedClassSchema>;
export type ChangedBooking = z.infer<typeof changedBookingSchema>;

/** Calls `handle` with the row when it has the expected shape (RLS may send only a key). */
const parsed =
  <T>(schema: z.ZodMiniType<T>, handle: (row: T) => void) =>
  (payload: { new: unknown }) => {
    const row = schema.safeParse(payload.new);
    if (row.success) handle(row.data);
  };

/**
 * Realtime (postgres_changes, RLS applies): `onClass` hears every changed class row (a booking or
 * a cancellation anywhere moves its spots); `onMyBooking` hears new or changed bookings of this
 * member (a waitlist promotion, a hold paid). Returns the unsubscribe function.
 */
export function subscribeToLiveChanges(
  memberId: string | null,
  handlers: { onClass: (row: ChangedClass) => void; onMyBooking: (row: ChangedBooking) => void },
): () => void {
  channelCount += 1;
  const name = `booking-live-${channelCount}`;
  let stopped = false;
  let stop = () => undefined as void;
  // supabase-js loads on first use (the screens that subscribe need it anyway for the session).
  void loadSupabase().then((supabase) => {
    if (stopped) return;
    let channel = supabase
      .channel(name)
      .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'classes' }, parsed(changedClassSchema, handlers.onClass));
    if (memberId) {
      const filter = `member_id=eq.${memberId}`;
      for (const event of ['INSERT', 'UPDATE'] as const) {
        channel = channel.on(
          'postgres_changes',
          { event, schema: 'public', table: 'bookings', filter },
          parsed(changedBookingSchema, handlers.onMyBooking),
        );
      }
    }
    channel.subscribe();
    stop = () => void supabase.removeChannel(channel);
  });
  return () => {
    stopped = true;
    stop();
  };
}
