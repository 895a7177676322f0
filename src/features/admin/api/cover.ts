import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { compositeRow, compositeRows } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { CoverRequest, CoverRequestFilled } from '@/lib/cover-request';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/** Every cover request under way (decision 0087): open ones wait for a coach, accepted ones for an admin. */
export async function getAdminCoverRequests(): Promise<CoverRequest[]> {
  const { data, error } = await supabase.rpc('admin_cover_requests');
  if (error) throw error;
  return compositeRows<'cover_request', CoverRequestFilled>(data);
}

export const useAdminCoverRequests = () => useQuery({ queryKey: queryKeys.admin.cover(), queryFn: getAdminCoverRequests });

export function useApproveCover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { data, error } = await supabase.rpc('approve_cover', { p_id: id });
      if (error) throw error;
      return compositeRow<'cover_request', CoverRequestFilled>(data);
    },
    // The class has a new coach: every admin list showing it rereads.
    onSettled: () => invalidateAfterAdminWrite(queryClient),
  });
}

export async function getCoverAutoApprove(): Promise<boolean> {
  const { data, error } = await supabase.rpc('admin_cover_auto_approve');
  if (error) throw error;
  return data;
}

export const useCoverAutoApprove = () => useQuery({ queryKey: queryKeys.admin.coverAutoApprove(), queryFn: getCoverAutoApprove });

export function useSetCoverAutoApprove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean) => {
      const { data, error } = await supabase.rpc('set_cover_auto_approve', { p_on: on });
      if (error) throw error;
      return data;
    },
    onSuccess: (on) => queryClient.setQueryData(queryKeys.admin.coverAutoApprove(), on),
  });
}
