import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';
import { londonToday } from '@/lib/studio-calendar';

/** The Add Closure form, shared with the call: a date from today (London) on, and a reason. */
export const closureFormSchema = z
  .object({ closedOn: z.string().min(1, 'Date is required'), reason: z.string().trim().min(1, 'Reason is required') })
  .refine(({ closedOn }) => !closedOn || closedOn >= londonToday(), { path: ['closedOn'], message: 'Choose today or a later date' });
export type ClosureForm = z.infer<typeof closureFormSchema>;

/** What `add_studio_closure` did: the closure, and how many classes and bookings it cancelled. */
export type ClosureResult = CompositeRow<'closure_result'>;

/**
 * Closes the studio on a date: the server cancels that day's classes and emails their booked
 * members (and refuses non-admins and past dates with a message shown as is).
 */
export async function addClosure(input: ClosureForm): Promise<ClosureResult> {
  const { closedOn, reason } = closureFormSchema.parse(input);
  const { data, error } = await supabase.rpc('add_studio_closure', { p_closed_on: closedOn, p_reason: reason });
  if (error) throw error;
  return compositeRow<'closure_result'>(data);
}

export function useAddClosure() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addClosure, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
