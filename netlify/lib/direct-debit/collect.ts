import { compositeRow, type CompositeRow } from '../../../src/lib/composite-row';
import type { CompositeTypes, Database } from '../../../src/lib/database.types';
import type { ChargeOutcome } from '../../../src/lib/functions-contract';
import type { Db } from '../supabase-server';
import { GoCardlessError, type GoCardlessClient, type GoCardlessPayment } from './gocardless';

/** public.direct_debit_collection: how to take one claimed membership payment. */
export type DirectDebitCollection = CompositeRow<'direct_debit_collection', 'method'>;

/** public.direct_debit_setup: a mandate setup to send the member to (every field set but the flow and the payment). */
export type DirectDebitSetup = CompositeRow<'direct_debit_setup', 'setup_reference' | 'description' | 'member_email' | 'first_charge_date'>;

export const directDebitSetup = (data: CompositeTypes<'direct_debit_setup'>) =>
  compositeRow<'direct_debit_setup', 'setup_reference' | 'description' | 'member_email' | 'first_charge_date'>(data);

type Fns = Database['public']['Functions'];

async function rpc<F extends keyof Fns>(db: Db, name: F, args: Fns[F]['Args']): Promise<Fns[F]['Returns']> {
  const { data, error } = await db.rpc(name, args);
  if (error) throw new Error(`${name} failed: ${error.message}`);
  return data;
}

/** How the database says to take a claimed payment: null for the card (the member's choice, or no answer). */
export async function directDebitCollectionFor(
  db: Db,
  charge: { checkout_reference: string; attempt: number },
  now: Date,
): Promise<DirectDebitCollection | null> {
  const data = await rpc(db, 'direct_debit_collection_for', {
    p_checkout_reference: charge.checkout_reference,
    p_attempt: charge.attempt,
    p_now: now.toISOString(),
  });
  const collection = data ? compositeRow<'direct_debit_collection', 'method'>(data) : null;
  return collection && (collection.method === 'direct_debit' || collection.method === 'in_flight') ? collection : null;
}

export type CollectResult = { outcome: ChargeOutcome; detail?: string };

/**
 * Submits one collection to GoCardless, exactly once: the collection's id is the idempotency key,
 * so a run that crashed after GoCardless made the payment gets that payment back (a 409 naming
 * it) instead of a second one. The payment is then on its way: the webhook settles it days later.
 * No mandate: the attempt fails at once ('direct_debit:no_mandate'), as a card renewal without a
 * card does. `fail` records a failed attempt (fail_membership_charge).
 */
export async function collectDirectDebit(
  db: Db,
  client: GoCardlessClient | null,
  charge: { checkout_reference: string; attempt: number; amount: number },
  collection: DirectDebitCollection,
  now: Date,
  fail: (reason: string, outcome: ChargeOutcome) => Promise<{ outcome: ChargeOutcome; detail?: string }>,
  release: () => Promise<void>,
): Promise<CollectResult> {
  if (collection.method === 'in_flight') return { outcome: 'pending', detail: 'a Direct Debit is already on its way' };
  if (!collection.provider_mandate_id || !collection.collection_id || !collection.charge_date) {
    return fail('direct_debit:no_mandate', 'no_card');
  }
  if (!client) {
    await release();
    return { outcome: 'error', detail: 'GOCARDLESS_ACCESS_TOKEN is not set: Direct Debit cannot be collected' };
  }
  let payment: GoCardlessPayment;
  try {
    payment = await client.createPayment({
      amountPence: Math.round(Number(collection.amount ?? charge.amount) * 100),
      chargeDate: collection.charge_date,
      description: collection.description ?? charge.checkout_reference,
      mandateId: collection.provider_mandate_id,
      idempotencyKey: collection.collection_id,
    });
  } catch (error) {
    if (!(error instanceof GoCardlessError)) throw error;
    if (error.kind === 'conflict' && error.conflictingResourceId) {
      payment = await client.getPayment(error.conflictingResourceId);
    } else if (error.kind === 'invalid') {
      // GoCardless refused it (a mandate it no longer honours): this attempt fails, our retry days follow.
      return fail('direct_debit:refused', 'declined');
    } else {
      // The request may have reached GoCardless: the claim runs out and the next run asks again
      // with the same idempotency key.
      return { outcome: 'error', detail: `${error.kind}: ${error.message}` };
    }
  }
  const recorded = await rpc(db, 'record_direct_debit_submission', {
    p_collection_id: collection.collection_id,
    p_provider_payment_id: payment.id,
    p_charge_date: payment.charge_date,
    p_now: now.toISOString(),
  });
  if (recorded !== 'applied' && recorded !== 'already_applied') return { outcome: 'error', detail: `${payment.id}: ${recorded}` };
  return { outcome: 'pending', detail: `Direct Debit ${payment.id} to be collected on ${payment.charge_date}` };
}

/**
 * Sends the member to GoCardless's hosted flow for the setup start_direct_debit recorded: a Billing
 * Request for a Bacs mandate (the setup's reference is its idempotency key, so two tabs asking at
 * once get one Billing Request) and its flow, recorded once (the first flow recorded is answered to
 * every tab). Returns the flow's URL, or null when GoCardless refused (the setup is abandoned).
 */
export async function startDirectDebitSetup(
  db: Db,
  client: GoCardlessClient,
  setup: DirectDebitSetup,
  urls: { redirectUri: string; exitUri: string },
): Promise<string | null> {
  if (setup.flow_url) return setup.flow_url;
  try {
    let billingRequestId: string;
    try {
      billingRequestId = (await client.createMandateRequest({ reference: setup.setup_reference, description: setup.description })).id;
    } catch (error) {
      if (!(error instanceof GoCardlessError) || error.kind !== 'conflict' || !error.conflictingResourceId) throw error;
      billingRequestId = error.conflictingResourceId;
    }
    const flow = await client.createFlow({
      billingRequestId,
      redirectUri: urls.redirectUri,
      exitUri: urls.exitUri,
      customer: { email: setup.member_email, name: setup.member_name },
    });
    return await rpc(db, 'set_direct_debit_flow', {
      p_setup_reference: setup.setup_reference,
      p_billing_request_id: billingRequestId,
      p_flow_url: flow.authorisationUrl,
    });
  } catch (error) {
    if (!(error instanceof GoCardlessError)) throw error;
    console.error(`[direct-debit] GoCardless refused setup ${setup.setup_reference} (${error.kind}): ${error.message}`);
    const { error: abandonError } = await db.rpc('abandon_direct_debit_setup', { p_setup_reference: setup.setup_reference });
    if (abandonError) console.error(`[direct-debit] could not abandon ${setup.setup_reference}: ${abandonError.message}`);
    return null;
  }
}
