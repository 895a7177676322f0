import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/** Deletes a member row (their bookings go with it); nothing deleted counts as a failure. */
export async function deleteMember(id: string): Promise<void> {
  const { data, error } = await supabase.from('members').delete().eq('id', id).select('id');
  if (error) throw error;
  if (data.length === 0) throw new Error('Member not deleted');
}

export function useDeleteMember() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteMember, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
