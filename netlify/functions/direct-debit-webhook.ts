import { compositeRow } from '../../src/lib/composite-row';
import { GoCardlessClient, readGoCardlessEnv, validWebhookSignature, type GoCardlessEvent } from '../lib/direct-debit/gocardless';
import { handle, json, methodNotAllowed } from '../lib/http';
import { claimAndCharge } from '../lib/payments/membership-charge';
import { paymentWebhookUrl, selectProvider } from '../lib/payments/select-provider';
import { readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/** GoCardless's answer for a body whose Webhook-Signature is wrong: "Invalid Token". */
const INVALID_SIGNATURE_STATUS = 498;

function parseEvents(body: string): GoCardlessEvent[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const events = (parsed as { events?: unknown } | null)?.events;
  if (!Array.isArray(events) || events.length > 500) return null;
  const valid = events.every(
    (e: unknown) =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as GoCardlessEvent).id === 'string' &&
      typeof (e as GoCardlessEvent).resource_type === 'string' &&
      typeof (e as GoCardlessEvent).action === 'string' &&
      typeof ((e as GoCardlessEvent).links ?? {}) === 'object',
  );
  return valid ? (events as GoCardlessEvent[]) : null;
}

/**
 * POST /.netlify/functions/direct-debit-webhook  { events: [...] }  Webhook-Signature: <hex HMAC-SHA256>
 * GoCardless's events (decision 0076). The body must be signed with the endpoint's secret
 * (GOCARDLESS_WEBHOOK_SECRET), else 498 and nothing changes. Each event is applied once by its id
 * (apply_direct_debit_event: replays and out-of-order events change nothing twice). A mandate just
 * set up for a first month (or for what a past-due plan owes) is collected at once. An event that
 * names something not recorded yet (a payment whose submission is still being recorded) is not
 * kept and the answer is 409, so GoCardless sends the batch again; the rest of it is deduplicated.
 * Refund events (decision 0103) settle a refund made from Refunds owed: a failed or returned one is
 * owed again; one the studio did not make is kept and recorded for the watchdog (unknown_refund).
 */
export default async function directDebitWebhook(req: Request): Promise<Response> {
  return handle('direct-debit-webhook', 'The notification could not be processed', async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const gocardless = readGoCardlessEnv();
    if (!gocardless) return json({ error: 'direct_debit_unavailable', message: 'Direct Debit is not set up' }, 404);
    const body = await req.text();
    if (!validWebhookSignature(gocardless.webhookSecret, body, req.headers.get('webhook-signature'))) {
      console.warn('[direct-debit-webhook] refused a body with an invalid Webhook-Signature');
      return json({ error: 'invalid_signature', message: 'Invalid Token' }, INVALID_SIGNATURE_STATUS);
    }
    const events = parseEvents(body);
    if (!events) return json({ error: 'invalid_notification', message: 'The body must be { events: [...] }' }, 400);

    const env = readServerEnv();
    const db = serviceDb(env);
    const client = new GoCardlessClient(gocardless);
    const now = new Date();
    let retry = 0;
    for (const event of events) {
      const { data, error } = await db.rpc('apply_direct_debit_event', {
        p_event_id: event.id,
        p_resource_type: event.resource_type,
        p_action: event.action,
        p_links: event.links ?? {},
        p_details: event.details ?? {},
        p_now: now.toISOString(),
      });
      if (error) throw new Error(`apply_direct_debit_event ${event.id} failed: ${error.message}`);
      const result = compositeRow<'direct_debit_event_result', 'outcome'>(data);
      console.info(`[direct-debit-webhook] ${event.id} ${event.resource_type}.${event.action}: ${result.outcome}`);
      if (result.outcome === 'unknown_reference') retry += 1;
      if (result.charge_reference) {
        const charged = await claimAndCharge(db, selectProvider(env), result.charge_reference, now, paymentWebhookUrl(env), () => client);
        console.info(
          `[direct-debit-webhook] collecting ${result.charge_reference}: ${charged?.outcome ?? 'nothing to collect'} ${charged?.detail ?? ''}`,
        );
      }
    }
    if (retry) return json({ error: 'not_yet', message: `${retry} event(s) name something not recorded yet` }, 409);
    return json({ received: events.length });
  });
}
