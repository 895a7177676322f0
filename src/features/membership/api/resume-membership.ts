import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { invalidateMembership } from './invalidate-membership';

/** Resume before the period ends: it renews again (`resume_membership()`). */
export async function resumeMembership(): Promise<void> {
  const { error } = await supabase.rpc('resume_membership');
  if (error) throw error;
}

export function useResumeMembership() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: resumeMembership, onSuccess: () => invalidateMembership(queryClient) });
}
