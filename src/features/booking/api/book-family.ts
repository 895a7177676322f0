import { useMutation, useQueryClient } from '@tanstack/react-query';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { callFunction } from '@/lib/functions-client';
import { loadSupabase } from '@/lib/supabase-loader';
import { redirectToCheckout } from './redirect-to-checkout';

export type FamilyBooking = CompositeRow<'family_booking_result'>;

/** Books the member (includeSelf) and the chosen children into one class: all places or none (book_family). */
export type FamilyChoice = { classId: string; includeSelf: boolean; childIds: string[] };

export async function bookFamily(input: FamilyChoice): Promise<FamilyBooking> {
  const { data, error } = await (
    await loadSupabase()
  ).rpc('book_family', { p_class_id: input.classId, p_include_self: input.includeSelf, p_dependant_ids: input.childIds });
  if (error) throw error;
  return compositeRow<'family_booking_result'>(data);
}

export function useBookFamily() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bookFamily,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.classes.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.planUsage.all }),
      ]),
  });
}

/**
 * Places paid by card are paid together: the create-family-checkout function holds
 * every place while the member pays the total on the hosted checkout, and the browser goes there.
 * Refusals come back as the function's FunctionError, whose code is the database's hint.
 */
export async function payForFamily(input: FamilyChoice): Promise<void> {
  const { url } = await callFunction('create-family-checkout', input);
  redirectToCheckout(url);
}

export function usePayForFamily() {
  return useMutation({ mutationFn: payForFamily });
}
