import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { compositeRow, compositeRows } from '@/lib/composite-row';
import { coverError, type CoverRequest, type CoverRequestFilled } from '@/lib/cover-request';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** Every request under way: the caller's own (mine), and the other coaches' to accept. */
export async function getCoachCoverRequests(): Promise<CoverRequest[]> {
  const { data, error } = await supabase.rpc('coach_cover_requests');
  if (error) throw error;
  return compositeRows<'cover_request', CoverRequestFilled>(data);
}

export const useCoachCoverRequests = () =>
  useQuery({ queryKey: queryKeys.coach.cover(), queryFn: getCoachCoverRequests, refetchInterval: 60_000 });

export const askCoverSchema = z.object({
  classId: z.string().min(1, 'Choose the class'),
  note: z.string().trim().max(500, 'Keep the note to 500 characters'),
});
export type AskCoverForm = z.infer<typeof askCoverSchema>;

export { coverError, type CoverRequest };

function useCoverMutation<Input>(call: (input: Input) => Promise<CoverRequest>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    // An approved cover moves the class to another coach: their class lists change too.
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.coach.all })]),
  });
}

export const useAskCover = () =>
  useCoverMutation(async (input: AskCoverForm) => {
    const { classId, note } = askCoverSchema.parse(input);
    const { data, error } = await supabase.rpc('request_cover', { p_class_id: classId, p_note: note });
    if (error) throw error;
    return compositeRow<'cover_request', CoverRequestFilled>(data);
  });

export const useAcceptCover = () =>
  useCoverMutation(async (id: string) => {
    const { data, error } = await supabase.rpc('accept_cover', { p_id: id });
    if (error) throw error;
    return compositeRow<'cover_request', CoverRequestFilled>(data);
  });

export const useWithdrawCover = () =>
  useCoverMutation(async (id: string) => {
    const { data, error } = await supabase.rpc('withdraw_cover_request', { p_id: id });
    if (error) throw error;
    return compositeRow<'cover_request', CoverRequestFilled>(data);
  });
