import type { BookingType } from '@/config/booking-types';
import { callFunction, FunctionError } from '@/lib/functions-client';
import { redirectToCheckout } from './redirect-to-checkout';

/**
 * Pay-as-you-go booking (spec section 7): asks the create-class-checkout function for a hosted
 * card payment page for this class and sends the browser there. The function reads who is
 * booking from the bearer token, never from the body; `bookingType` is the form's choice, if any
 * (a Standard member paying for this one: the hold books that type). Resolves false when no
 * checkout could be started (no session, the function missing or failing, no url), so the caller can say so.
 * Throws the function's FunctionError when the database refused the hold because the member has
 * not signed the current documents: the caller sends them to sign.
 */
export async function startClassCheckout(classId: string, bookingType: BookingType | null = null): Promise<boolean> {
  try {
    const { url } = await callFunction('create-class-checkout', { classId, bookingType });
    if (!url) return false;
    redirectToCheckout(url);
    return true;
  } catch (error) {
    if (error instanceof FunctionError && error.code === 'documents_required') throw error;
    return false;
  }
}
