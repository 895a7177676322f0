import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { compositeRow, compositeRows, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

type Filled = 'id' | 'class_id' | 'class_name' | 'start_time' | 'duration' | 'requested_by' | 'requested_by_name' | 'status';
type Filled2 = Filled | 'created_at' | 'mine' | 'covering';

/** A cover request under way (decision 0087), as the coach or the admin reads it. */
export type CoverRequest = CompositeRow<'cover_request', Filled2>;

const rows = (data: Parameters<typeof compositeRows<'cover_request'>>[0]) => compositeRows<'cover_request', Filled2>(data);

/** Every request under way: the caller's own (mine), and the other coaches' to accept. */
export async function getCoachCoverRequests(): Promise<CoverRequest[]> {
  const { data, error } = await supabase.rpc('coach_cover_requests');
  if (error) throw error;
  return rows(data);
}

export const useCoachCoverRequests = () =>
  useQuery({ queryKey: queryKeys.coach.cover(), queryFn: getCoachCoverRequests, refetchInterval: 60_000 });

export const askCoverSchema = z.object({
  classId: z.string().min(1, 'Choose the class'),
  note: z.string().trim().max(500, 'Keep the note to 500 characters'),
});
export type AskCoverForm = z.infer<typeof askCoverSchema>;

/** The database's refusals of cover, in the coach's or admin's words (its own message for each). */
export function coverError(error: unknown): string {
  const { hint, message } = error as { hint?: string; message?: string };
  const known = [
    'not_your_class',
    'class_started',
    'cover_already_requested',
    'invalid_note',
    'cover_request_not_found',
    'cannot_cover_own_class',
    'cover_already_taken',
    'cover_not_accepted',
    'cover_request_closed',
    'cover_clash',
    'same_coach',
  ];
  return hint && known.includes(hint) && message ? message : 'Could not save that. Please try again.';
}

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
    return compositeRow<'cover_request', Filled2>(data);
  });

export const useAcceptCover = () =>
  useCoverMutation(async (id: string) => {
    const { data, error } = await supabase.rpc('accept_cover', { p_id: id });
    if (error) throw error;
    return compositeRow<'cover_request', Filled2>(data);
  });

export const useWithdrawCover = () =>
  useCoverMutation(async (id: string) => {
    const { data, error } = await supabase.rpc('withdraw_cover_request', { p_id: id });
    if (error) throw error;
    return compositeRow<'cover_request', Filled2>(data);
  });
