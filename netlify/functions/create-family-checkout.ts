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
/** More children than any family has: a longer list is not a family booking. */
const MAX_CHILDREN = 12;

/**
 * POST /.netlify/functions/create-family-checkout  { classId, includeSelf, childIds }  Authorization: Bearer <session>
 * → 200 { url, reference }: the caller's places and their children's on a paid class are held
 * together (pending; they lapse together like any hold) while the caller pays for the paid ones in
 * one hosted checkout. The database runs book_family's rules (ages, documents, places left, the
 * caller's own booking rules) and the price; the webhook's apply_checkout_result confirms every
 * place or none (decision 0021).
 */
export default async function createFamilyCheckout(req: Request): Promise<Response> {
  return handle('create-family-checkout', CHECKOUT_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { classId, includeSelf, childIds } = await readRequest<'create-family-checkout'>(req);
    if (typeof classId !== 'string' || !UUID.test(classId)) {
      throw new HttpError(400, 'invalid_request', 'classId must be a class id');
    }
    if (typeof includeSelf !== 'boolean') throw new HttpError(400, 'invalid_request', 'includeSelf must be true or false');
    if (!Array.isArray(childIds) || childIds.length > MAX_CHILDREN || !childIds.every((id) => typeof id === 'string' && UUID.test(id))) {
      throw new HttpError(400, 'invalid_request', `childIds must be a list of at most ${MAX_CHILDREN} child ids`);
    }

    const env = readServerEnv();
    const provider = selectProvider(env);
    const caller = await verifyCaller(env, token);
    const memberId = await memberIdForUser(env, caller.userId);

    const { data, error } = await serviceDb(env).rpc('create_family_payment_hold', {
      p_member_id: memberId,
      p_class_id: classId,
      p_include_self: includeSelf,
      p_dependant_ids: childIds,
      p_hold_minutes: CLASS_HOLD_MINUTES,
    });
    if (error) throw rpcFailure(error, 'create_family_payment_hold');
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
    return json({ url, reference: hold.checkout_reference } satisfies FunctionAnswer<'create-family-checkout'>);
  });
}
