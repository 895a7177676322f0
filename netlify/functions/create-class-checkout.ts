import { bearerToken, handle, HttpError, json, methodNotAllowed, readJsonObject } from '../lib/http';
import { CHECKOUT_FAILED_MESSAGE, CLASS_HOLD_MINUTES } from '../lib/payments/payment-rules';
import { selectProvider } from '../lib/payments/select-provider';
import { startCheckout } from '../lib/payments/start-checkout';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv } from '../lib/server-env';
import { memberDb, serviceDb, verifyCaller } from '../lib/supabase-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type MemberRow = { id: string; membership_tier: string; has_used_trial: boolean };

/**
 * POST /.netlify/functions/create-class-checkout  { classId }  Authorization: Bearer <session>
 * → 200 { url, reference }: the spot is held (a pending pay-as-you-go booking) while the member
 * pays the class's own price_payg on the hosted checkout.
 */
export default async function createClassCheckout(req: Request): Promise<Response> {
  return handle('create-class-checkout', CHECKOUT_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { classId } = await readJsonObject(req);
    if (typeof classId !== 'string' || !UUID.test(classId)) {
      throw new HttpError(400, 'invalid_request', 'classId must be a class id');
    }

    const env = readServerEnv();
    const provider = selectProvider(env);
    const caller = await verifyCaller(env, token);
    const db = serviceDb(env);

    const { data: memberData, error: memberError } = await db
      .from('members')
      .select('id, membership_tier, has_used_trial')
      .eq('user_id', caller.userId)
      .maybeSingle<MemberRow>();
    if (memberError) throw new Error(`members lookup failed: ${memberError.message}`);
    const member = memberData;
    if (!member) throw new HttpError(404, 'member_not_found', 'Member not found. Please sign in again.');
    // Only this member's book_class decision "payment_required" leads here. Asking book_class
    // for anyone else would book them on the spot, so those are refused before it is called.
    if (member.membership_tier !== 'payg' || !member.has_used_trial) {
      throw new HttpError(409, 'payment_not_required', 'No payment is needed for this booking');
    }

    // book_class holds every booking rule (started, full, already booked, premium unlock window);
    // for a pay-as-you-go member who used the trial it changes nothing and answers payment_required.
    const { data: decisionData, error: decisionError } = await memberDb(env, token).rpc('book_class', { p_class_id: classId });
    if (decisionError) throw rpcFailure(decisionError, 'book_class');
    const decision = decisionData as { status?: string } | null;
    if (decision?.status !== 'payment_required') {
      console.error(`[create-class-checkout] book_class answered ${JSON.stringify(decision)} for a paying member`);
      throw new HttpError(409, 'payment_not_required', 'No payment is needed for this booking');
    }

    const { data, error } = await db.rpc('create_class_payment_hold', {
      p_member_id: member.id,
      p_class_id: classId,
      p_hold_minutes: CLASS_HOLD_MINUTES,
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
