import { planBySlug } from '../../src/config/plans';
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
 * upgrade → 200 { outcome: 'paid' | 'declined' | 'pending' | 'error', amount }: the new plan is
 *   charged now with the saved card and its period starts now (nothing changes unless it is paid).
 * downgrade → 200 { outcome: 'scheduled' }: the next renewal charges and grants the lower plan.
 */
export default async function changeMembership(req: Request): Promise<Response> {
  return handle('change-membership', CHANGE_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { action, planSlug } = await readRequest<'change-membership'>(req);
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

    const { data, error } = await db.rpc('start_membership_upgrade', args);
    if (error) throw rpcFailure(error, 'start_membership_upgrade');
    const result = await claimAndCharge(db, provider, data, now, paymentWebhookUrl(env));
    return json({ outcome: result?.outcome ?? 'pending', amount: plan.pricePence / 100 } satisfies FunctionAnswer<'change-membership'>);
  });
}
