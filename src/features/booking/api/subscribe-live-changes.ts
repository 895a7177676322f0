import { supabase } from '@/lib/supabase';

let channelCount = 0;

export type ChangedClass = { id: string; name: string };
export type ChangedBooking = { class_id: string };

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
  let channel = supabase
    .channel(`booking-live-${channelCount}`)
    .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'classes' }, (payload) => handlers.onClass(payload.new as ChangedClass));
  if (memberId) {
    const filter = `member_id=eq.${memberId}`;
    for (const event of ['INSERT', 'UPDATE'] as const) {
      channel = channel.on('postgres_changes', { event, schema: 'public', table: 'bookings', filter }, (payload) => handlers.onMyBooking(payload.new as ChangedBooking));
    }
  }
  channel.subscribe();
  return () => {
    void supabase.removeChannel(channel);
  };
}
