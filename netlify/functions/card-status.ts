import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { bearerToken, handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { verifyAndApplyCheckout } from '../lib/payments/apply-checkout';
import { isCardSetupReference } from '../lib/payments/card-setup';
import { ProviderError } from '../lib/payments/provider';
import { selectProvider } from '../lib/payments/select-provider';
import { rpcFailure } from '../lib/rpc-errors';
import { ConfigError, readServerEnv, type ServerEnv } from '../lib/server-env';
import { memberIdForUser, serviceDb, verifyCaller } from '../lib/supabase-server';

async function setupState(env: ServerEnv, reference: string, memberId: string) {
  const { data, error } = await serviceDb(env).rpc('card_setup_state', { p_setup_reference: reference, p_member_id: memberId });
  if (error) throw rpcFailure(error, 'card_setup_state');
  const row = data?.[0];
  if (!row) throw new HttpError(404, 'card_setup_not_found', 'Card not found');
  return row;
}

/**
 * POST /.netlify/functions/card-status  { reference }  Authorization: Bearer <session>
 * → 200 { status: saved | pending | failed } for the caller's own card-saving checkout with nothing
 * due (decision 0104), 404 for any other reference. While it is pending the provider is asked too
 * (the same verified path as the webhook), so a lost notification does not leave the card unsaved.
 */
export default async function cardStatus(req: Request): Promise<Response> {
  return handle('card-status', 'Could not check your card, please try again.', async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { reference } = await readRequest<'card-status'>(req);
    if (typeof reference !== 'string' || !isCardSetupReference(reference) || reference.length > 64) {
      throw new HttpError(400, 'invalid_request', 'reference is required');
    }
    const env = readServerEnv();
    const caller = await verifyCaller(env, token);
    const memberId = await memberIdForUser(env, caller.userId);
    let state = await setupState(env, reference, memberId);
    if (state.status === 'pending' && state.provider_checkout_id) {
      try {
        await verifyAndApplyCheckout(env, selectProvider(env), state.provider_checkout_id);
        state = await setupState(env, reference, memberId);
      } catch (error) {
        // The database's answer stands; the page asks again shortly.
        if (!(error instanceof ProviderError || error instanceof ConfigError)) throw error;
        console.warn(`[card-status] could not ask the provider about ${reference}: ${error.message}`);
      }
    }
    const status = state.status === 'paid' ? 'saved' : state.status === 'pending' ? 'pending' : 'failed';
    return json({ status } satisfies FunctionAnswer<'card-status'>);
  });
}
