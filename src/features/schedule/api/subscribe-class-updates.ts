import type { ClassRow } from '@/lib/supabase';
import { supabase } from '@/lib/supabase';

let channelCount = 0;

/**
 * Live spot counts: calls `onUpdate` with the new row whenever a class changes (a booking or a
 * cancellation anywhere moves spots_left). Returns the unsubscribe function.
 */
export function subscribeToClassUpdates(onUpdate: (row: ClassRow) => void): () => void {
  channelCount += 1;
  const channel = supabase
    .channel(`classes-live-${channelCount}`)
    .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'classes' }, (payload) => onUpdate(payload.new as ClassRow))
    .subscribe();
  return () => {
    void supabase.removeChannel(channel);
  };
}
