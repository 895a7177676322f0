import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';
import { BookingRefused } from './book-class';
import { redirectToCheckout } from './redirect-to-checkout';

/**
 * "Complete payment" on a held spot: the same provider checkout the hold was made for
 * (`my_hold_checkout`), while the hold is still valid; refused with `hold_ended` otherwise.
 */
export async function getHoldCheckoutUrl(bookingId: string): Promise<string> {
  const { data, error } = await (await loadSupabase()).rpc('my_hold_checkout', { p_booking_id: bookingId });
  if (error) throw new BookingRefused(error);
  // The provider's page, never a path of ours or a script URL: the browser is sent there next.
  if (!/^https?:\/\//.test(data)) throw new Error('The checkout link is not a web address');
  return data;
}

/** Sends the browser back to the hold's checkout page; a hold that has ended leaves the lists. */
export function useCompleteHoldPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (bookingId: string) => redirectToCheckout(await getHoldCheckoutUrl(bookingId)),
    onError: () => queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all }),
  });
}
