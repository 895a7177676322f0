import { compositeRow } from '../../src/lib/composite-row';
import { checkedText } from '../../src/lib/checked-text';
import type { FunctionAnswer, GiftVoucherCheckout } from '../../src/lib/functions-contract';
import { handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { verifyAndApplyCheckout } from '../lib/payments/apply-checkout';
import { ProviderError } from '../lib/payments/provider';
import { selectProvider } from '../lib/payments/select-provider';
import { rpcFailure } from '../lib/rpc-errors';
import { ConfigError, readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

const REFERENCE = /^voucher-[0-9a-f-]{36}$/;

/**
 * POST /.netlify/functions/gift-voucher-status  { reference }
 * → 200 { status, amount, recipientName, deliverOn, expiresAt }: the voucher checkout's state, for
 * its return page. A visitor has no session, so the reference (a random id the provider sent the
 * browser back with) is what proves it is theirs; nothing else about the buyer is answered. While
 * it is pending the provider is asked too (the webhook's verified path).
 */
export default async function giftVoucherStatus(req: Request): Promise<Response> {
  return handle('gift-voucher-status', 'Could not check the payment, please try again.', async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const { reference } = await readRequest<'gift-voucher-status'>(req);
    if (typeof reference !== 'string' || !REFERENCE.test(reference)) {
      throw new HttpError(400, 'invalid_request', 'reference is required');
    }
    const env = readServerEnv();
    const db = serviceDb(env);
    const read = async () => {
      const { data, error } = await db.rpc('gift_voucher_checkout', { p_checkout_reference: reference });
      if (error) throw rpcFailure(error, 'gift_voucher_checkout');
      const row = compositeRow<'gift_voucher_checkout', 'status' | 'amount' | 'recipient_name' | 'deliver_on'>(data);
      if (!row.status) throw new HttpError(404, 'payment_not_found', 'Payment not found');
      return row;
    };
    let row = await read();
    if (row.status === 'pending') {
      const { data: payment } = await db.from('payments').select('provider_checkout_id').eq('checkout_reference', reference).maybeSingle();
      if (payment?.provider_checkout_id) {
        try {
          await verifyAndApplyCheckout(env, selectProvider(env), payment.provider_checkout_id);
          row = await read();
        } catch (error) {
          if (!(error instanceof ProviderError || error instanceof ConfigError)) throw error;
          console.warn(`[gift-voucher-status] could not ask the provider about ${reference}: ${error.message}`);
        }
      }
    }
    return json({
      status: checkedText<GiftVoucherCheckout['status']>(row.status),
      amount: Number(row.amount),
      recipientName: row.recipient_name,
      deliverOn: row.deliver_on,
      expiresAt: row.expires_at ?? null,
    } satisfies FunctionAnswer<'gift-voucher-status'>);
  });
}
