import { useMutation, useQueryClient } from '@tanstack/react-query';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';
import { BookingRefused } from './book-class';

/**
 * `waitlist_joined` (every field set but `price`: what a pay-as-you-go member's saved card is charged
 * on promotion, decision 0081). Read without zod: the Join Waitlist button is on the member's first screen.
 */
export type WaitlistPlace = CompositeRow<'waitlist_joined', 'class_id' | 'position' | 'waitlist_size' | 'closes_at'>;

/** Joins a full class's waitlist (`join_waitlist`); the answer is the member's place in it. */
export async function joinWaitlist(classId: string): Promise<WaitlistPlace> {
  const { data, error } = await (await loadSupabase()).rpc('join_waitlist', { p_class_id: classId });
  if (error) throw new BookingRefused(error);
  return compositeRow<'waitlist_joined', 'class_id' | 'position' | 'waitlist_size' | 'closes_at'>(data);
}

/** Waitlist changes move the class's facts (the place, the line's size) and the member's waitlists. */
export function useWaitlistInvalidation() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryKeys.classes.all, queryKeys.waitlist.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

export function useJoinWaitlist() {
  const invalidate = useWaitlistInvalidation();
  return useMutation({ mutationFn: joinWaitlist, onSettled: invalidate });
}
