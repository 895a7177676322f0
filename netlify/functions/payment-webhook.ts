import { handle, HttpError, json, methodNotAllowed, readJsonObject } from '../lib/http';
import { verifyAndApplyCheckout, type ApplyOutcome } from '../lib/payments/apply-checkout';
import { ProviderError } from '../lib/payments/provider';
import { selectProvider } from '../lib/payments/select-provider';
import { readServerEnv, type ServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/** Verified with the provider yet matching no payment: the studio is alerted (decision 0046). */
const UNAPPLIED: ReadonlySet<ApplyOutcome> = new Set(['unknown_reference', 'mismatch']);
/** Settled: an earlier failure for the same checkout is resolved. */
const APPLIED: ReadonlySet<ApplyOutcome> = new Set(['applied', 'already_applied', 'marked_failed']);

/**
 * Remembers a notification that could not be applied (or resolves earlier ones once it applies),
 * for the watchdog. Never fails the webhook: a recording error is logged.
 */
async function recordNotification(env: ServerEnv, checkoutId: string, applied: boolean, reason: string, detail: string) {
  const { error } = await serviceDb(env).rpc('record_payment_notification', {
    p_checkout_id: checkoutId,
    p_applied: applied,
    p_reason: reason,
    p_detail: detail,
    p_now: new Date().toISOString(),
  });
  if (error) console.error(`[payment-webhook] could not record the outcome of checkout ${checkoutId}: ${error.message}`);
}

/** SumUp's only event today; others may appear without notice and are acknowledged and ignored. */
const CHECKOUT_STATUS_CHANGED = 'CHECKOUT_STATUS_CHANGED';

/**
 * POST /.netlify/functions/payment-webhook  { event_type: 'CHECKOUT_STATUS_CHANGED', id }
 * The body is only a hint: the checkout is fetched from the provider and matched against our
 * payment row before anything changes. 200 once handled (including forged or mismatched
 * notifications, which change nothing and are logged); 400 for a malformed body; 502 when the
 * provider cannot be asked, so the provider retries later.
 */
export default async function paymentWebhook(req: Request): Promise<Response> {
  return handle('payment-webhook', 'The notification could not be processed', async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const body = await readJsonObject(req);
    if (body.event_type !== CHECKOUT_STATUS_CHANGED) {
      console.warn(`[payment-webhook] ignored event type ${JSON.stringify(body.event_type)}`);
      return json({ received: true });
    }
    const id = body.id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 100) {
      throw new HttpError(400, 'invalid_notification', 'The notification has no checkout id');
    }

    const env = readServerEnv();
    try {
      const result = await verifyAndApplyCheckout(env, selectProvider(env), id);
      console.info(`[payment-webhook] checkout ${id}: ${result.outcome}`);
      if (UNAPPLIED.has(result.outcome)) await recordNotification(env, id, false, result.outcome, 'The checkout does not match a payment');
      else if (APPLIED.has(result.outcome)) await recordNotification(env, id, true, result.outcome, '');
    } catch (error) {
      if (error instanceof ProviderError) {
        console.error(`[payment-webhook] could not verify checkout ${id} (${error.kind}): ${error.message}`);
        return json({ error: 'provider_unavailable', message: 'The checkout could not be verified yet' }, 502);
      }
      await recordNotification(env, id, false, 'apply_failed', error instanceof Error ? error.message : String(error));
      throw error;
    }
    return json({ received: true });
  });
}
