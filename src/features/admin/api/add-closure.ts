import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';
import { londonToday } from '../lib/studio-clock';
import { untypedClient } from './untyped-client';

/** The Add Closure form, shared with the call: a date from today (London) on, and a reason. */
export const closureFormSchema = z
  .object({ closedOn: z.string().min(1, 'Date is required'), reason: z.string().trim().min(1, 'Reason is required') })
  .refine(({ closedOn }) => !closedOn || closedOn >= londonToday(), { path: ['closedOn'], message: 'Choose today or a later date' });
export type ClosureForm = z.infer<typeof closureFormSchema>;

const resultRow = z.object({ closure_id: z.string(), cancelled_classes: z.coerce.number().int(), affected_bookings: z.coerce.number().int() });
/** `add_studio_closure` returns one row; PostgREST answers an array of one for a set-returning function. */
const resultSchema = z.union([resultRow, z.array(resultRow).length(1).transform(([row]) => row!)]);
export type ClosureResult = z.infer<typeof resultRow>;

/**
 * Closes the studio on a date: the server cancels that day's classes and emails their booked
 * members (and refuses non-admins and past dates with a message shown as is).
 */
export async function addClosure(input: ClosureForm): Promise<ClosureResult> {
  const { closedOn, reason } = closureFormSchema.parse(input);
  const result = await untypedClient(supabase).rpc('add_studio_closure', { p_closed_on: closedOn, p_reason: reason });
  if (result.error) throw result.error;
  return resultSchema.parse(result.data as unknown);
}

export function useAddClosure() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addClosure, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
