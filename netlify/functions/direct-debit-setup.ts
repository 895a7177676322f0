import { planBySlug } from '../../src/config/plans';
import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { directDebitSetup, startDirectDebitSetup } from '../lib/direct-debit/collect';
import { selectDirectDebit } from '../lib/direct-debit/gocardless';
import { bearerToken, handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv } from '../lib/server-env';
import { memberIdForUser, serviceDb, verifyCaller } from '../lib/supabase-server';

const SETUP_FAILED_MESSAGE = 'Could not start the Direct Debit setup, please try again.';

/**
 * POST /.netlify/functions/direct-debit-setup  { planSlug? }  Authorization: Bearer <session>
 * → 200 { url, reference, firstChargeDate }: GoCardless's hosted page where the member sets up a
 * Bacs Direct Debit mandate (decision 0076). With `planSlug` (a monthly plan) the first month is
 * recorded now at the catalogue's price and collected once the mandate exists; without, the
 * caller's running plan is paid by Direct Debit from its next renewal. Two tabs get the same page.
 * 503 when Direct Debit is not set up (no GOCARDLESS_ACCESS_TOKEN); the card stays available.
 */
export default async function directDebitSetupFunction(req: Request): Promise<Response> {
  return handle('direct-debit-setup', SETUP_FAILED_MESSAGE, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { planSlug } = await readRequest<'direct-debit-setup'>(req);
    if (planSlug !== undefined && planSlug !== null && typeof planSlug !== 'string') {
      throw new HttpError(400, 'invalid_request', 'planSlug must be a plan');
    }
    const plan = planSlug ? planBySlug(planSlug) : null;
    if (planSlug && !plan) throw new HttpError(400, 'unknown_plan', `Unknown plan: ${planSlug}`);

    const env = readServerEnv();
    const client = selectDirectDebit();
    if (!client) throw new HttpError(503, 'direct_debit_unavailable', 'Direct Debit is not available at the moment: please pay by card.');
    const caller = await verifyCaller(env, token);
    const memberId = await memberIdForUser(env, caller.userId);
    const db = serviceDb(env);
    const { data, error } = await db.rpc('start_direct_debit', {
      p_member_id: memberId,
      ...(plan ? { p_plan_slug: plan.slug } : {}),
      p_now: new Date().toISOString(),
    });
    if (error) throw rpcFailure(error, 'start_direct_debit');
    const setup = directDebitSetup(data);
    const url = await startDirectDebitSetup(db, client, setup, {
      redirectUri: `${env.siteUrl}/membership?direct_debit=set_up`,
      exitUri: `${env.siteUrl}/membership`,
    });
    if (!url) return json({ error: 'setup_failed', message: SETUP_FAILED_MESSAGE }, 502);
    return json({
      url,
      reference: setup.payment_reference,
      firstChargeDate: setup.first_charge_date,
    } satisfies FunctionAnswer<'direct-debit-setup'>);
  });
}
