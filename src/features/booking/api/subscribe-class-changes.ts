import { supabase } from '@/lib/supabase';

let channelCount = 0;

export type ChangedClass = { id: string; name: string };

/**
 * Calls `onChange` with the changed row whenever a class changes (a booking or a cancellation
 * anywhere moves its spots). Returns the unsubscribe function.
 */
export function subscribeToClassChanges(onChange: (row: ChangedClass) => void): () => void {
  channelCount += 1;
  const channel = supabase
    .channel(`classes-live-${channelCount}`)
    .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'classes' }, (payload) => onChange(payload.new as ChangedClass))
    .subscribe();
  return () => {
    void supabase.removeChannel(channel);
  };
}
