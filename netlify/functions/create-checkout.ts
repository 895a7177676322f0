import { planBySlug } from '../../src/config/plans';
import { compositeRow } from '../../src/lib/composite-row';
import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { bearerToken, handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { cardUpdateCheckout, startCardSetup } from '../lib/payments/card-setup';
import { startCheckout } from '../lib/payments/start-checkout';
import { CHECKOUT_FAILED_MESSAGE, returnPageUrl } from '../lib/payments/payment-rules';
import { selectProvider } from '../lib/payments/select-provider';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv } from '../lib/server-env';
import { memberIdForUser, serviceDb, verifyCaller } from '../lib/supabase-server';

/**
 * POST /.netlify/functions/create-checkout  { planSlug, userId }  Authorization: Bearer <session>
 * → 200 { url, reference }: a hosted checkout for the plan at the catalogue's price (public.plans,
 * decided by the database: only the slug is sent). A monthly
 * membership's checkout saves the card (decision 0009): the first month is charged with it once
 * the provider confirms it, and every renewal after; `reference` is that first payment's.
 * `promoCode` (any plan) or `introOfferId` (a package) are priced by the database too
 * (private.offer_price, decision 0083): a refusal answers 409 (or 400) with its message.
 */
export default async function createCheckout(req: Request): Promise<Response> {
  return handle('create-checkout', CHECKOUT_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { planSlug, userId, promoCode, introOfferId } = await readRequest<'create-checkout'>(req);
    if (typeof planSlug !== 'string' || typeof userId !== 'string' || !planSlug || !userId) {
      throw new HttpError(400, 'invalid_request', 'planSlug and userId are required');
    }
    if ((promoCode != null && typeof promoCode !== 'string') || (introOfferId != null && typeof introOfferId !== 'string')) {
      throw new HttpError(400, 'invalid_request', 'promoCode and introOfferId are text');
    }
    // Sent only when the member chose one, so a plain purchase is the catalogue's price as before.
    const code = promoCode?.trim() ? { p_promo_code: promoCode.trim() } : {};
    const plan = planBySlug(planSlug);
    if (!plan) throw new HttpError(400, 'unknown_plan', `Unknown plan: ${planSlug}`);
    // Concession prices need the studio to see proof first: their card offers Contact Us instead.
    if (plan.requiresProof) {
      throw new HttpError(400, 'plan_requires_proof', 'This plan needs proof of eligibility: please contact the studio.');
    }

    const env = readServerEnv();
    const provider = selectProvider(env);
    const caller = await verifyCaller(env, token);
    if (userId !== caller.userId) throw new HttpError(403, 'forbidden', 'You can only buy a plan for your own account.');
    const memberId = await memberIdForUser(env, caller.userId);

    if (plan.interval === 'month' && plan.grantsTier) {
      if (introOfferId) throw new HttpError(400, 'offer_not_for_plan', `Intro offers are packages, not ${plan.name}.`);
      const { data, error } = await serviceDb(env).rpc('start_membership_checkout', {
        p_member_id: memberId,
        p_plan_slug: plan.slug,
        p_now: new Date().toISOString(),
        ...code,
      });
      if (error) throw rpcFailure(error, 'start_membership_checkout');
      // No payment behind it: the member's balance paid the first month in full (decision 0108), the
      // plan has started, and this checkout only saves the card for the renewals (decision 0104).
      const setup = cardUpdateCheckout(data);
      const url = await startCardSetup(env, provider, setup);
      if (!url) return json({ error: 'checkout_failed', message: CHECKOUT_FAILED_MESSAGE }, 502);
      return json({ url, reference: setup.payment_reference ?? setup.setup_reference } satisfies FunctionAnswer<'create-checkout'>);
    }

    // The database takes the price and the description from its catalogue (public.plans).
    const { data, error } = await serviceDb(env).rpc('create_plan_payment', {
      p_member_id: memberId,
      p_plan_slug: plan.slug,
      ...code,
      ...(introOfferId ? { p_intro_offer_id: introOfferId } : {}),
    });
    if (error) throw rpcFailure(error, 'create_plan_payment');
    const payment = compositeRow<'plan_payment', 'checkout_reference' | 'description' | 'amount'>(data);

    // The member's balance paid it all (decision 0101): already paid, no card page.
    if (Number(payment.amount) === 0) {
      return json({ url: returnPageUrl(env.siteUrl, payment.checkout_reference), reference: payment.checkout_reference });
    }
    const url = await startCheckout(env, provider, {
      reference: payment.checkout_reference,
      amount: payment.amount,
      description: payment.description,
    });
    if (!url) return json({ error: 'checkout_failed', message: CHECKOUT_FAILED_MESSAGE }, 502);
    return json({ url, reference: payment.checkout_reference } satisfies FunctionAnswer<'create-checkout'>);
  });
}
