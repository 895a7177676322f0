import { useMutation } from '@tanstack/react-query';
import type { Database } from '@/lib/database.types';
import { loadSupabase } from '@/lib/supabase-loader';
import { BookingRefused } from './book-class';

export type CancelledGuestPlace = Database['public']['CompositeTypes']['guest_place_view'];

/**
 * Cancels a guest place with the token from the guest's email (`cancel_guest_place`): anyone
 * holding the link, signed in or not. Refused when already cancelled or the class has started.
 */
export async function cancelGuestPlace(token: string): Promise<CancelledGuestPlace> {
  const { data, error } = await (await loadSupabase()).rpc('cancel_guest_place', { p_token: token });
  if (error) throw new BookingRefused(error);
  return data;
}

export const useCancelGuestPlace = () => useMutation({ mutationFn: cancelGuestPlace });
