import { useMutation, useQueryClient } from '@tanstack/react-query';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

export type FamilyBooking = CompositeRow<'family_booking_result'>;

/** Books the member (includeSelf) and the chosen children into one class: all places or none (book_family). */
export async function bookFamily(input: { classId: string; includeSelf: boolean; childIds: string[] }): Promise<FamilyBooking> {
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
