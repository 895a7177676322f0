import { useMutation } from '@tanstack/react-query';
import { loadSupabase } from '@/lib/supabase-loader';
import { BookingRefused } from './book-class';
import { useWaitlistInvalidation } from './join-waitlist';

/** Leaves a class's waitlist (`leave_waitlist`); the database moves everyone behind up one. */
export async function leaveWaitlist(classId: string): Promise<void> {
  const { error } = await (await loadSupabase()).rpc('leave_waitlist', { p_class_id: classId });
  if (error) throw new BookingRefused(error);
}

export function useLeaveWaitlist() {
  const invalidate = useWaitlistInvalidation();
  return useMutation({ mutationFn: leaveWaitlist, onSettled: invalidate });
}
