import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/** Deletes one class (its bookings go with it); nothing deleted counts as a failure. */
export async function deleteClass(id: string): Promise<void> {
  const { data, error } = await supabase.from('classes').delete().eq('id', id).select('id');
  if (error) throw error;
  if (data.length === 0) throw new Error('Class not deleted');
}

export function useDeleteClass() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteClass, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
