import { compositeRow } from '../../src/lib/composite-row';
import { Constants, type Enums } from '../../src/lib/database.types';
import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { bearerToken, handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { CHECKOUT_FAILED_MESSAGE, CLASS_HOLD_MINUTES, returnPageUrl } from '../lib/payments/payment-rules';
import { selectProvider } from '../lib/payments/select-provider';
import { startCheckout } from '../lib/payments/start-checkout';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv } from '../lib/server-env';
import { memberIdForUser, serviceDb, verifyCaller } from '../lib/supabase-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type BookingType = Enums<'booking_type'>;
/** What a card payment can hold a spot as: every booking type but a credit (never paid by card). */
const CARD_BOOKING_TYPES: readonly BookingType[] = Constants.public.Enums.booking_type.filter((type) => type !== 'credit');
const isCardBookingType = (value: unknown): value is BookingType => CARD_BOOKING_TYPES.some((type) => type === value);

/**
 * POST /.netlify/functions/create-class-checkout  { classId, bookingType? }  Authorization: Bearer <session>
 * → 200 { url, reference }: the spot is held (a pending pay-as-you-go booking) while the member
 * pays the class's own price_payg on the hosted checkout.
 */
export default async function createClassCheckout(req: Request): Promise<Response> {
  return handle('create-class-checkout', CHECKOUT_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { classId, bookingType = null } = await readRequest<'create-class-checkout'>(req);
    if (typeof classId !== 'string' || !UUID.test(classId)) {
      throw new HttpError(400, 'invalid_request', 'classId must be a class id');
    }
    if (bookingType !== null && !isCardBookingType(bookingType)) {
      throw new HttpError(400, 'invalid_request', 'bookingType must be paid, trial or payg');
    }

    const env = readServerEnv();
    const provider = selectProvider(env);
    const caller = await verifyCaller(env, token);
    const memberId = await memberIdForUser(env, caller.userId);

    // The hold runs book_class's own rules for this member and booking type (started, full,
    // already booked, premium window, allowance, trial) and refuses anything not paid by card.
    const { data, error } = await serviceDb(env).rpc('create_class_payment_hold', {
      p_member_id: memberId,
      p_class_id: classId,
      p_hold_minutes: CLASS_HOLD_MINUTES,
      p_booking_type: bookingType,
    });
    if (error) throw rpcFailure(error, 'create_class_payment_hold');
    const hold = compositeRow<'class_payment_hold', 'checkout_reference' | 'amount' | 'description'>(data);

    // The member's balance paid it all (decision 0101): already paid, no card page.
    if (Number(hold.amount) === 0) {
      return json({ url: returnPageUrl(env.siteUrl, hold.checkout_reference), reference: hold.checkout_reference });
    }
    const url = await startCheckout(env, provider, {
      reference: hold.checkout_reference,
      amount: Number(hold.amount),
      description: hold.description,
    });
    if (!url) return json({ error: 'checkout_failed', message: CHECKOUT_FAILED_MESSAGE }, 502);
    return json({ url, reference: hold.checkout_reference } satisfies FunctionAnswer<'create-class-checkout'>);
  });
}
