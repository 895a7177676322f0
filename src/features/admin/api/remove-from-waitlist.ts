import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/** Takes a member off a class's waitlist (admins only, by row-level security). */
export async function removeFromWaitlist(entryId: string): Promise<void> {
  const { error, count } = await supabase.from('class_waitlist').delete({ count: 'exact' }).eq('id', entryId);
  if (error) throw error;
  if (count === 0) throw new Error('Waitlist entry not found');
}

export function useRemoveFromWaitlist() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeFromWaitlist, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
