import { supabase } from '../supabase';

export const CHECKOUT_ENDPOINT = '/.netlify/functions/create-checkout';

export const CHECKOUT_MESSAGES = {
  signInFirst: 'Please sign in first.',
  failed: 'Could not start checkout, please try again.',
} as const;

function hasUrl(body: unknown): body is { url: string } {
  return typeof body === 'object' && body !== null && typeof (body as { url?: unknown }).url === 'string' && (body as { url: string }).url !== '';
}

/**
 * Buying a plan (spec section 7): POST the plan slug and the signed-in user's id to the
 * create-checkout function, then send the browser to the checkout page it returns. The access
 * token goes along so the function can check who is asking rather than trusting `userId`.
 * Without a session, or on any failure, the spec's browser alerts are shown.
 * Resolves to true when the browser is being sent to checkout.
 */
export async function startPlanCheckout(planSlug: string): Promise<boolean> {
  const { data } = await supabase.auth.getSession();
  const session = data.session;
  if (!session) {
    window.alert(CHECKOUT_MESSAGES.signInFirst);
    return false;
  }
  try {
    const res = await fetch(CHECKOUT_ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.access_token}` },
      body: JSON.stringify({ planSlug, userId: session.user.id }),
    });
    const body: unknown = await res.json().catch(() => null);
    // A member whose plan runs changes it on /membership instead (issue 13): the server says so.
    if (res.status === 409 && typeof body === 'object' && body !== null && (body as { error?: unknown }).error === 'membership_running') {
      window.alert((body as { message: string }).message);
      return false;
    }
    if (!res.ok || !hasUrl(body)) throw new Error(`create-checkout answered ${res.status} without a url`);
    window.location.assign(body.url);
    return true;
  } catch {
    window.alert(CHECKOUT_MESSAGES.failed);
    return false;
  }
}
