import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

/** The guest's place as their cancel link shows it before they confirm: the class, its time and the host. */
export type GuestPlace = CompositeRow<'guest_place_view', 'guest_name' | 'class_name' | 'start_time' | 'host_name'>;

/**
 * Reads the place with the token from the guest's email (`guest_place_by_token`), signed in or not;
 * nothing changes. A used or unknown link is refused (`guest_not_found`), as is a started class.
 */
export async function getGuestPlace(token: string): Promise<GuestPlace> {
  const { data, error } = await (await loadSupabase()).rpc('guest_place_by_token', { p_token: token });
  // As PostgREST answered it: a refusal (with its hint and code) is then never retried.
  if (error) throw error;
  return compositeRow<'guest_place_view', 'guest_name' | 'class_name' | 'start_time' | 'host_name'>(data);
}

export const guestPlaceQueryOptions = (token: string) =>
  queryOptions({
    queryKey: queryKeys.bookings.guestPlace(token),
    queryFn: () => getGuestPlace(token),
    enabled: token !== '',
    // Read once: once the guest has cancelled, a refetch would only find the place gone.
    staleTime: Infinity,
  });

export const useGuestPlace = (token: string) => useQuery(guestPlaceQueryOptions(token));
