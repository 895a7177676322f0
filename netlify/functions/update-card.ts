import { bearerToken, handle, json, methodNotAllowed } from '../lib/http';
import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { cardUpdateCheckout, startCardSetup } from '../lib/payments/card-setup';
import { CHECKOUT_FAILED_MESSAGE } from '../lib/payments/payment-rules';
import { selectProvider } from '../lib/payments/select-provider';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv } from '../lib/server-env';
import { memberIdForUser, serviceDb, verifyCaller } from '../lib/supabase-server';

/**
 * POST /.netlify/functions/update-card  Authorization: Bearer <session>
 * → 200 { url, reference }: a card-saving checkout. For a past-due membership, once the provider
 * confirms the new card, what is due is charged with it at once (`reference` is that payment).
 * For an active, renewing plan with nothing due ("Add a card" / "Replace card", decision 0104)
 * nothing is charged: `reference` is the card-saving checkout's own, and the browser comes back to
 * My Membership. 409 nothing_due when there is no such plan.
 */
export default async function updateCard(req: Request): Promise<Response> {
  return handle('update-card', CHECKOUT_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const env = readServerEnv();
    const provider = selectProvider(env);
    const caller = await verifyCaller(env, token);
    const memberId = await memberIdForUser(env, caller.userId);
    const { data, error } = await serviceDb(env).rpc('start_card_update', { p_member_id: memberId, p_now: new Date().toISOString() });
    if (error) throw rpcFailure(error, 'start_card_update');
    const setup = cardUpdateCheckout(data);
    const url = await startCardSetup(env, provider, setup);
    if (!url) return json({ error: 'checkout_failed', message: CHECKOUT_FAILED_MESSAGE }, 502);
    return json({ url, reference: setup.payment_reference ?? setup.setup_reference } satisfies FunctionAnswer<'update-card'>);
  });
}
