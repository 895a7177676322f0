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
export async function startPlanCheckout(planSlug: PlanSlug): Promise<boolean> {
  const { data } = await supabase.auth.getSession();
  if (!data.session) {
    window.alert(CHECKOUT_MESSAGES.signInFirst);
    return false;
  }
  try {
    const { url } = await callFunction('create-checkout', { planSlug, userId: data.session.user.id });
    if (!url) throw new Error('create-checkout answered without a url');
    window.location.assign(url);
    return true;
  } catch (error) {
    // A member whose plan runs changes it on /membership instead (decision 0009): the server says so.
    window.alert(error instanceof FunctionError && error.code === 'membership_running' ? error.message : CHECKOUT_MESSAGES.failed);
    return false;
  }
}
