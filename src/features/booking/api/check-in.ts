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

/** Checks the member in to their booked class starting now with today's door code; never books. */
export async function checkInWithCode({ code }: DoorCodeInput): Promise<CheckInResult> {
  const { data, error } = await supabase.rpc('check_in_with_code', { p_code: code.trim() });
  if (error) throw error;
  return data;
}

export function useCheckInWithCode() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: checkInWithCode, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all }) });
}
