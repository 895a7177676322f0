import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { BookingRefused, invalidateAfterBooking } from './book-class';
import { redirectToCheckout } from './redirect-to-checkout';
import { callFunction } from '@/lib/functions-client';
import { loadSupabase } from '@/lib/supabase-loader';

/** What the Add a guest form checks before asking the database (which checks it all again). */
export const guestFormSchema = z.object({
  name: z.string().trim().min(1, "Enter your guest's name").max(100, 'At most 100 characters'),
  email: z.string().trim().pipe(z.email("Enter your guest's email address")),
});
export type GuestFormValues = z.input<typeof guestFormSchema>;

export type AddGuestInput = { bookingId: string } & GuestFormValues;

/** Adds a named guest to the member's booking with a guest pass (`add_guest`; refusals keep their hint). */
export async function addGuest({ bookingId, name, email }: AddGuestInput): Promise<void> {
  const { error } = await (await loadSupabase()).rpc('add_guest', { p_booking_id: bookingId, p_name: name.trim(), p_email: email.trim() });
  if (error) throw new BookingRefused(error);
}

/**
 * Pays the class's pay-as-you-go price for the guest instead of a pass: the
 * create-guest-checkout function holds the guest's place while the member pays, and the browser
 * goes to the hosted checkout. Refusals come back as the function's FunctionError, whose code is
 * the database's hint (the same as add_guest's).
 */
export async function payForGuest({ bookingId, name, email }: AddGuestInput): Promise<void> {
  const { url } = await callFunction('create-guest-checkout', { bookingId, name: name.trim(), email: email.trim() });
  redirectToCheckout(url);
}

/** A guest takes a place and a pass: the schedule, My Bookings and the credits change (removing: remove-guest.ts). */
export function useAddGuest() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addGuest, onSettled: () => invalidateAfterBooking(queryClient) });
}

export function usePayForGuest() {
  return useMutation({ mutationFn: payForGuest });
}
