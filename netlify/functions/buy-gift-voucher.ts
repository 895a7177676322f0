import { compositeRow } from '../../src/lib/composite-row';
import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { CHECKOUT_FAILED_MESSAGE, GIFT_VOUCHER_RETURN_PATH } from '../lib/payments/payment-rules';
import { selectProvider } from '../lib/payments/select-provider';
import { startCheckout } from '../lib/payments/start-checkout';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv } from '../lib/server-env';
import { memberIdForUser, serviceDb, verifyCaller } from '../lib/supabase-server';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const text = (v: unknown): v is string => typeof v === 'string';

/**
 * POST /.netlify/functions/buy-gift-voucher
 *   { amount | planSlug, recipientName, recipientEmail, message, deliverOn, buyerName?, buyerEmail? }
 *   [Authorization: Bearer <session>]
 * → 200 { url, reference }: the voucher and its pending payment are recorded by the database (which
 * checks the amount against the studio's limits, or prices the package from its catalogue, and
 * every other field), then the hosted card checkout is started. Anyone may buy: with a session the
 * buyer is that member, without one the name and email given. Nothing is issued until the
 * provider says paid (apply_checkout_result, decision 0100).
 */
export default async function buyGiftVoucher(req: Request): Promise<Response> {
  return handle('buy-gift-voucher', CHECKOUT_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const body = await readRequest<'buy-gift-voucher'>(req);
    const { amount, planSlug, recipientName, recipientEmail, message, deliverOn, buyerName, buyerEmail } = body;
    if (!text(recipientName) || !text(recipientEmail) || !text(message) || !text(deliverOn) || !DATE.test(deliverOn)) {
      throw new HttpError(400, 'invalid_request', 'recipientName, recipientEmail, message and deliverOn (YYYY-MM-DD) are required');
    }
    if (
      (amount != null && typeof amount !== 'number') ||
      (planSlug != null && !text(planSlug)) ||
      (amount == null) === (planSlug == null)
    ) {
      throw new HttpError(400, 'invalid_request', 'Give either an amount or a package');
    }
    if ((buyerName != null && !text(buyerName)) || (buyerEmail != null && !text(buyerEmail))) {
      throw new HttpError(400, 'invalid_request', 'buyerName and buyerEmail are text');
    }

    const env = readServerEnv();
    const provider = selectProvider(env);
    const authorization = req.headers.get('authorization');
    let memberId: string | null = null;
    if (authorization) {
      const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
      if (!token) throw new HttpError(401, 'not_authenticated', 'Please sign in first.');
      memberId = await memberIdForUser(env, (await verifyCaller(env, token)).userId);
    }

    const { data, error } = await serviceDb(env).rpc('create_gift_voucher_payment', {
      p_buyer_member_id: memberId as string,
      p_buyer_name: buyerName ?? '',
      p_buyer_email: buyerEmail ?? '',
      p_recipient_name: recipientName,
      p_recipient_email: recipientEmail,
      p_message: message,
      p_deliver_on: deliverOn,
      p_amount: (amount ?? null) as number,
      p_plan_slug: (planSlug ?? null) as string,
      p_now: new Date().toISOString(),
    });
    if (error) throw rpcFailure(error, 'create_gift_voucher_payment');
    const payment = compositeRow<'plan_payment', 'checkout_reference' | 'description' | 'amount'>(data);

    const url = await startCheckout(env, provider, {
      reference: payment.checkout_reference,
      amount: Number(payment.amount),
      description: payment.description,
      returnPath: GIFT_VOUCHER_RETURN_PATH,
    });
    if (!url) return json({ error: 'checkout_failed', message: CHECKOUT_FAILED_MESSAGE }, 502);
    return json({ url, reference: payment.checkout_reference } satisfies FunctionAnswer<'buy-gift-voucher'>);
  });
}
