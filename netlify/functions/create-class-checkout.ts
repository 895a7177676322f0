import { bearerToken, handle, HttpError, json, methodNotAllowed, readJsonObject } from '../lib/http';
import { CHECKOUT_FAILED_MESSAGE, CLASS_HOLD_MINUTES } from '../lib/payments/payment-rules';
import { selectProvider } from '../lib/payments/select-provider';
import { startCheckout } from '../lib/payments/start-checkout';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv } from '../lib/server-env';
import { serviceDb, verifyCaller } from '../lib/supabase-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type MemberRow = { id: string };
const BOOKING_TYPES = ['paid', 'trial', 'payg'] as const;

/**
 * POST /.netlify/functions/create-class-checkout  { classId, bookingType? }  Authorization: Bearer <session>
 * → 200 { url, reference }: the spot is held (a pending pay-as-you-go booking) while the member
 * pays the class's own price_payg on the hosted checkout.
 */
export default async function createClassCheckout(req: Request): Promise<Response> {
  return handle('create-class-checkout', CHECKOUT_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { classId, bookingType } = await readJsonObject(req);
    if (typeof classId !== 'string' || !UUID.test(classId)) {
      throw new HttpError(400, 'invalid_request', 'classId must be a class id');
    }
    if (bookingType !== undefined && bookingType !== null && !BOOKING_TYPES.includes(bookingType as never)) {
      throw new HttpError(400, 'invalid_request', 'bookingType must be paid, trial or payg');
    }

    const env = readServerEnv();
    const provider = selectProvider(env);
    const caller = await verifyCaller(env, token);
    const db = serviceDb(env);

    const { data: memberData, error: memberError } = await db
      .from('members')
      .select('id')
      .eq('user_id', caller.userId)
      .maybeSingle<MemberRow>();
    if (memberError) throw new Error(`members lookup failed: ${memberError.message}`);
    const member = memberData;
    if (!member) throw new HttpError(404, 'member_not_found', 'Member not found. Please sign in again.');

    // The hold runs book_class's own rules for this member and booking type (started, full,
    // already booked, premium window, allowance, trial) and refuses anything not paid by card.
    const { data, error } = await db.rpc('create_class_payment_hold', {
      p_member_id: member.id,
      p_class_id: classId,
      p_hold_minutes: CLASS_HOLD_MINUTES,
      p_booking_type: (bookingType as (typeof BOOKING_TYPES)[number] | null | undefined) ?? null,
    });
    if (error) throw rpcFailure(error, 'create_class_payment_hold');
    const hold = data as { checkout_reference: string; amount: number | string; description: string };

    const url = await startCheckout(env, provider, {
      reference: hold.checkout_reference,
      amount: Number(hold.amount),
      description: hold.description,
    });
    if (!url) return json({ error: 'checkout_failed', message: CHECKOUT_FAILED_MESSAGE }, 502);
    return json({ url, reference: hold.checkout_reference });
  });
}
