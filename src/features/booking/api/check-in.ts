import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { Database } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** The class a member checked in to (`check_in_with_code`). */
export type CheckInResult = Database['public']['CompositeTypes']['check_in_result'];

export const doorCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{4}$/, 'Enter the 4-digit code shown at the door'),
});
export type DoorCodeInput = z.input<typeof doorCodeSchema>;

/**
 * A refusal the server words for the member. A wrong code comes back as the answer's `refusal`
 * rather than an error (the database keeps a count of wrong codes, which an error would roll
 * back); it is thrown here like the refusals the database raises (too_many_attempts,
 * check_in_no_booking), with the same `hint` and `message`.
 */
export class CheckInRefused extends Error {
  constructor(
    readonly hint: string,
    message: string,
  ) {
    super(message);
  }
}

/** Checks the member in to their booked class starting now with today's door code; never books. */
export async function checkInWithCode({ code }: DoorCodeInput): Promise<CheckInResult> {
  const { data, error } = await supabase.rpc('check_in_with_code', { p_code: code.trim() });
  if (error) throw error;
  if (data.refusal) throw new CheckInRefused(data.refusal, data.message ?? '');
  return data;
}

export function useCheckInWithCode() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: checkInWithCode, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all }) });
}
