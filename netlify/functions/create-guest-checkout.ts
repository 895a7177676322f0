import { compositeRow } from '../../src/lib/composite-row';
import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { bearerToken, handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { CHECKOUT_FAILED_MESSAGE, CLASS_HOLD_MINUTES, returnPageUrl } from '../lib/payments/payment-rules';
import { selectProvider } from '../lib/payments/select-provider';
import { startCheckout } from '../lib/payments/start-checkout';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv } from '../lib/server-env';
import { memberIdForUser, serviceDb, verifyCaller } from '../lib/supabase-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /.netlify/functions/create-guest-checkout  { bookingId, name, email }  Authorization: Bearer <session>
 * → 200 { url, reference }: the guest's place on the caller's booked class is held (pending, it
 * lapses like any hold) while the member pays the class's own price_payg on the hosted checkout.
 * The database runs add_guest's rules (own confirmed booking, not yourself, 3 visits a year, room
 * left); the webhook's apply_checkout_result confirms the place and emails the guest.
 */
export default async function createGuestCheckout(req: Request): Promise<Response> {
  return handle('create-guest-checkout', CHECKOUT_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { bookingId, name, email } = await readRequest<'create-guest-checkout'>(req);
    if (typeof bookingId !== 'string' || !UUID.test(bookingId)) {
      throw new HttpError(400, 'invalid_request', 'bookingId must be a booking id');
    }
    if (typeof name !== 'string' || typeof email !== 'string') {
      throw new HttpError(400, 'invalid_request', "name and email must be the guest's");
    }

    const env = readServerEnv();
    const provider = selectProvider(env);
    const caller = await verifyCaller(env, token);
    const memberId = await memberIdForUser(env, caller.userId);

    const { data, error } = await serviceDb(env).rpc('create_guest_payment_hold', {
      p_member_id: memberId,
      p_booking_id: bookingId,
      p_name: name,
      p_email: email,
      p_hold_minutes: CLASS_HOLD_MINUTES,
    });
    if (error) throw rpcFailure(error, 'create_guest_payment_hold');
    const hold = compositeRow<'class_payment_hold', 'checkout_reference' | 'amount' | 'description'>(data);

    // The member's balance paid it all (decision 0108): already booked, no card page.
    if (Number(hold.amount) === 0) {
      return json({ url: returnPageUrl(env.siteUrl, hold.checkout_reference), reference: hold.checkout_reference });
    }
    const url = await startCheckout(env, provider, {
      reference: hold.checkout_reference,
      amount: Number(hold.amount),
      description: hold.description,
    });
    if (!url) return json({ error: 'checkout_failed', message: CHECKOUT_FAILED_MESSAGE }, 502);
    return json({ url, reference: hold.checkout_reference } satisfies FunctionAnswer<'create-guest-checkout'>);
  });
}
