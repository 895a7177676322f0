import { loadSupabase } from '@/lib/supabase-loader';
import type { BookingType } from '@/config/booking-types';
import { redirectToCheckout } from './redirect-to-checkout';

export const CLASS_CHECKOUT_ENDPOINT = '/.netlify/functions/create-class-checkout';

function hasUrl(body: unknown): body is { url: string } {
  const url = (body as { url?: unknown } | null)?.url;
  return typeof url === 'string' && url !== '';
}

/**
 * Pay-as-you-go booking (spec section 7): asks the create-class-checkout function for a hosted
 * card payment page for this class and sends the browser there. The function reads who is
 * booking from the bearer token, never from the body; `bookingType` is the form's choice, if any. Resolves false when no checkout could be
 * started (no session, the function missing or failing, no url), so the caller can say so.
 */
export async function startClassCheckout(classId: string, bookingType: BookingType | null = null): Promise<boolean> {
  const { data } = await (await loadSupabase()).auth.getSession();
  const token = data.session?.access_token;
  if (!token) return false;
  try {
    const res = await fetch(CLASS_CHECKOUT_ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      // The form's choice (a Standard member paying for this one): the hold books that type.
      body: JSON.stringify({ classId, bookingType }),
    });
    const body: unknown = res.ok ? await res.json() : null;
    if (!hasUrl(body)) return false;
    redirectToCheckout(body.url);
    return true;
  } catch {
    return false;
  }
}
