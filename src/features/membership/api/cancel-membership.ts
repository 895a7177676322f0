import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { invalidateMembership } from './invalidate-membership';

/** Cancel renewal: access stays until the period ends (`cancel_membership()`). */
export async function cancelMembership(): Promise<void> {
  const { error } = await supabase.rpc('cancel_membership');
  if (error) throw error;
}

export function useCancelMembership() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelMembership, onSuccess: () => invalidateMembership(queryClient) });
}
