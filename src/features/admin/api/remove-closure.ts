import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** Reopens a closed day (classes cancelled by the closure stay cancelled). */
export async function removeClosure(closureId: string): Promise<void> {
  const { error } = await supabase.rpc('remove_studio_closure', { p_id: closureId });
  if (error) throw error;
}

export function useRemoveClosure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeClosure,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.closures() }),
  });
}
