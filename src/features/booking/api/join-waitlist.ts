import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';
import { BookingRefused } from './book-class';

const placeSchema = z.object({ class_id: z.string(), position: z.number(), waitlist_size: z.number(), closes_at: z.string() });
export type WaitlistPlace = z.infer<typeof placeSchema>;

/** Joins a full class's waitlist (`join_waitlist`); the answer is the member's place in it. */
export async function joinWaitlist(classId: string): Promise<WaitlistPlace> {
  const { data, error } = await (await loadSupabase()).rpc('join_waitlist', { p_class_id: classId });
  if (error) throw new BookingRefused(error);
  return placeSchema.parse(data);
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
