import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/**
 * How many paid bookings of classes not yet started a deletion would turn into refunds owed
 * (paid_bookings_affected, admins only): one class, or every class (null) for a regeneration.
 */
export async function getPaidBookingsAffected(classId: string | null): Promise<number> {
  const { data, error } = await supabase.rpc('paid_bookings_affected', classId ? { p_class_id: classId } : {});
  if (error) throw error;
  return data;
}

// Read just before asking: a booking paid a minute ago must be in the warning.
export const paidBookingsAffectedQueryOptions = (classId: string | null) =>
  queryOptions({ queryKey: queryKeys.admin.paidBookingsAffected(classId), queryFn: () => getPaidBookingsAffected(classId), staleTime: 0 });

/** A function that reads the count fresh, for a confirmation about to be shown. */
export function usePaidBookingsCheck() {
  const queryClient = useQueryClient();
  return (classId: string | null) => queryClient.fetchQuery(paidBookingsAffectedQueryOptions(classId));
}
