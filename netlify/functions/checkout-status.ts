import { planBySlug } from '../../src/config/plans';
import { checkedText } from '../../src/lib/checked-text';
import type { FunctionAnswer, PaymentStatus } from '../../src/lib/functions-contract';
import { bearerToken, handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { verifyAndApplyCheckout } from '../lib/payments/apply-checkout';
import { ProviderError } from '../lib/payments/provider';
import { selectProvider } from '../lib/payments/select-provider';
import { rpcFailure } from '../lib/rpc-errors';
import { ConfigError, readServerEnv, type ServerEnv } from '../lib/server-env';
import { memberDb, serviceDb, verifyCaller } from '../lib/supabase-server';

const COLUMNS =
  'checkout_reference, kind, status, plan_slug, amount, currency, provider_checkout_id, paid_at, needs_refund, classes(name, start_time)';

/** The member's own payment, read with their token so RLS proves it is theirs. */
async function readOwnPayment(env: ServerEnv, token: string, reference: string) {
  const { data, error } = await memberDb(env, token).from('payments').select(COLUMNS).eq('checkout_reference', reference).maybeSingle();
  if (error) throw rpcFailure(error, 'payments select');
  if (!data) throw new HttpError(404, 'payment_not_found', 'Payment not found');
  return data;
}

async function pendingCardSetups(env: ServerEnv, reference: string): Promise<string[]> {
  const { data, error } = await serviceDb(env).rpc('pending_card_setups', { p_payment_reference: reference });
  if (error) throw rpcFailure(error, 'pending_card_setups');
  return data ?? [];
}

/**
 * POST /.netlify/functions/checkout-status  { reference }  Authorization: Bearer <session>
 * → 200 { reference, kind, status, amount, currency, planSlug, planName, className,
 *         classStartTime, paidAt, needsRefund }
 * The status is the database's. While it is not paid the provider is asked too (the same verified
 * path as the webhook), so a late or lost notification does not leave the member waiting.
 */
export default async function checkoutStatus(req: Request): Promise<Response> {
  return handle('checkout-status', 'Could not check the payment, please try again.', async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { reference } = await readRequest<'checkout-status'>(req);
    if (typeof reference !== 'string' || reference.length === 0 || reference.length > 64) {
      throw new HttpError(400, 'invalid_request', 'reference is required');
    }

    const env = readServerEnv();
    // Only a member's session reads a payment: the anon key or any other token is a 401, not a
    // database refusal answered as a 500.
    await verifyCaller(env, token);
    let payment = await readOwnPayment(env, token, reference);
    if (payment.status !== 'paid') {
      try {
        // The payment's own checkout while it is pending, and the card-saving checkouts of a
        // membership payment (the first month, or a past-due renewal being paid with a new card).
        const own = payment.status === 'pending' && payment.provider_checkout_id ? [payment.provider_checkout_id] : [];
        const checkoutIds = [...own, ...(payment.kind === 'plan' ? await pendingCardSetups(env, reference) : [])];
        for (const checkoutId of checkoutIds) await verifyAndApplyCheckout(env, selectProvider(env), checkoutId);
        if (checkoutIds.length > 0) payment = await readOwnPayment(env, token, reference);
      } catch (error) {
        // The database's answer stands; the page asks again shortly.
        if (!(error instanceof ProviderError || error instanceof ConfigError)) throw error;
        console.warn(`[checkout-status] could not ask the provider about ${reference}: ${error.message}`);
      }
    }

    return json({
      reference: payment.checkout_reference,
      kind: checkedText<PaymentStatus['kind']>(payment.kind),
      status: payment.status,
      amount: Number(payment.amount),
      currency: payment.currency,
      planSlug: payment.plan_slug,
      planName: planBySlug(payment.plan_slug)?.name ?? null,
      className: payment.classes?.name ?? null,
      classStartTime: payment.classes?.start_time ?? null,
      paidAt: payment.paid_at,
      needsRefund: payment.needs_refund,
    } satisfies FunctionAnswer<'checkout-status'>);
  });
}
