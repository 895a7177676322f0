import type { PlanSlug } from '@/config/plans';
import { callFunction, FunctionError } from '../functions-client';
import { supabase } from '../supabase';

export const CHECKOUT_MESSAGES = {
  signInFirst: 'Please sign in first.',
  failed: 'Could not start checkout, please try again.',
} as const;

/**
 * Buying a plan (spec section 7): POST the plan slug and the signed-in user's id to the
 * create-checkout function, then send the browser to the checkout page it returns. The access
 * token goes along so the function can check who is asking rather than trusting `userId`.
 * Without a session, or on any failure, the spec's browser alerts are shown.
 * Resolves to true when the browser is being sent to checkout.
 */
/** The refusals whose words the member should read: a running plan, and a promo code or intro offer that does not apply. */
const SHOWN_REFUSALS = new Set([
  'membership_running',
  'promo_unknown',
  'promo_expired',
  'promo_not_for_plan',
  'promo_used',
  'promo_used_up',
  'offer_not_for_plan',
  'offer_not_combinable',
  'offer_ended',
  'intro_offer_used',
  'not_new_member',
  'offer_window_passed',
]);

/** A promo code or an intro offer to price the checkout with (the database prices it, decision 0083). */
export type CheckoutOffer = { promoCode?: string | null; introOfferId?: string | null };

export async function startPlanCheckout(planSlug: PlanSlug, offer: CheckoutOffer = {}): Promise<boolean> {
  const { data } = await supabase.auth.getSession();
  if (!data.session) {
    window.alert(CHECKOUT_MESSAGES.signInFirst);
    return false;
  }
  try {
    const { url } = await callFunction('create-checkout', {
      planSlug,
      userId: data.session.user.id,
      ...(offer.promoCode ? { promoCode: offer.promoCode } : {}),
      ...(offer.introOfferId ? { introOfferId: offer.introOfferId } : {}),
    });
    if (!url) throw new Error('create-checkout answered without a url');
    window.location.assign(url);
    return true;
  } catch (error) {
    // A member whose plan runs changes it on /membership instead (decision 0009), and a code that
    // no longer applies (used up since the preview) says why: the server's words.
    window.alert(error instanceof FunctionError && SHOWN_REFUSALS.has(error.code) ? error.message : CHECKOUT_MESSAGES.failed);
    return false;
  }
}
