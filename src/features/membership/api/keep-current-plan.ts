import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { invalidateMembership } from './invalidate-membership';

/** Undo a plan change scheduled for the period end: it renews on the current plan (`keep_current_plan()`). */
export async function keepCurrentPlan(): Promise<void> {
  const { error } = await supabase.rpc('keep_current_plan');
  if (error) throw error;
}

export function useKeepCurrentPlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: keepCurrentPlan, onSuccess: () => invalidateMembership(queryClient) });
}
