import { formatPounds, planBySlug } from '../../src/config/plans';
import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { bearerToken, handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { claimAndCharge } from '../lib/payments/membership-charge';
import { paymentWebhookUrl, selectProvider } from '../lib/payments/select-provider';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv } from '../lib/server-env';
import { memberIdForUser, serviceDb, verifyCaller } from '../lib/supabase-server';

const CHANGE_FAILED_MESSAGE = 'Could not change your membership, please try again.';

/**
 * POST /.netlify/functions/change-membership  { action: 'upgrade' | 'downgrade', planSlug }
 * Authorization: Bearer <session>. Prices come from the catalogue in the database, never from the request.
 * upgrade → 200 { outcome: 'paid' | 'declined' | 'pending' | 'error', amount }: the new plan's price
 *   less the unused days of the current one (the database's upgrade_quote) is charged now with the
 *   saved card and its period starts now (nothing changes unless it is paid). With expectedAmount
 *   (what the member was shown) and a different charge: 409 amount_changed, nothing charged.
 * downgrade → 200 { outcome: 'scheduled' }: the next renewal charges and grants the lower plan.
 */
export default async function changeMembership(req: Request): Promise<Response> {
  return handle('change-membership', CHANGE_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { action, planSlug, expectedAmount } = await readRequest<'change-membership'>(req);
    const plan = planBySlug(planSlug);
    if ((action !== 'upgrade' && action !== 'downgrade') || !plan?.grantsTier || plan.interval !== 'month' || plan.requiresProof) {
      throw new HttpError(400, 'invalid_request', 'Choose upgrade or downgrade and a monthly plan.');
    }
    const env = readServerEnv();
    const provider = selectProvider(env);
    const caller = await verifyCaller(env, token);
    const memberId = await memberIdForUser(env, caller.userId);
    const db = serviceDb(env);
    const now = new Date();
    // The database takes the price, the tier and the description from its catalogue (public.plans).
    const args = { p_member_id: memberId, p_plan_slug: plan.slug, p_now: now.toISOString() };

    if (action === 'downgrade') {
      const { error } = await db.rpc('schedule_membership_downgrade', args);
      if (error) throw rpcFailure(error, 'schedule_membership_downgrade');
      return json({ outcome: 'scheduled' } satisfies FunctionAnswer<'change-membership'>);
    }

    const { data: reference, error } = await db.rpc('start_membership_upgrade', args);
    if (error) throw rpcFailure(error, 'start_membership_upgrade');
    const payment = await db.from('payments').select('amount').eq('checkout_reference', reference).single();
    if (payment.error) throw new Error(`upgrade payment ${reference}: ${payment.error.message}`);
    const amount = Number(payment.data.amount);
    if (typeof expectedAmount === 'number' && Math.round(expectedAmount * 100) !== Math.round(amount * 100)) {
      // Shown on one London day, confirmed on the next: one more unused day has gone.
      throw new HttpError(
        409,
        'amount_changed',
        `The upgrade now costs ${formatPounds(amount)}: please look at the new figure and confirm again.`,
      );
    }
    const result = await claimAndCharge(db, provider, reference, now, paymentWebhookUrl(env));
    return json({ outcome: result?.outcome ?? 'pending', amount } satisfies FunctionAnswer<'change-membership'>);
  });
}
