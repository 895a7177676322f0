import { compositeRow, type CompositeRow } from '../../../src/lib/composite-row';
import type { Database } from '../../../src/lib/database.types';
import type { ChargeOutcome } from '../../../src/lib/functions-contract';
import { collectDirectDebit, directDebitCollectionFor } from '../direct-debit/collect';
import { selectDirectDebit, type GoCardlessClient } from '../direct-debit/gocardless';
import type { Db } from '../supabase-server';
import { ProviderError, type PaymentProvider, type ProviderCheckout } from './provider';

/** The fields of a claimed membership_charge always set (the card and the provider's checkout may not be yet). */
export type MembershipChargeSetFields =
  'checkout_reference' | 'amount' | 'currency' | 'description' | 'billing_reason' | 'member_id' | 'customer_id' | 'attempt';

/** One membership payment claimed for charging (public.membership_charge). */
export type MembershipCharge = CompositeRow<'membership_charge', MembershipChargeSetFields>;

/** How the charge ended (ChargeOutcome, shared with the browser: change-membership answers an upgrade's). */
export type ChargeResult = { reference: string; outcome: ChargeOutcome; detail?: string };

type Fns = Database['public']['Functions'];

/** One RPC of the generated contract, its failure thrown with its name. */
async function rpc<F extends keyof Fns>(db: Db, name: F, args: Fns[F]['Args']): Promise<Fns[F]['Returns']> {
  const { data, error } = await db.rpc(name, args);
  if (error) throw new Error(`${name} failed: ${error.message}`);
  return data;
}

/**
 * Takes one claimed membership payment the way the member pays (decision 0076): a member paying by
 * Direct Debit gets a GoCardless collection (settled by its webhook days later); anyone else is
 * charged with the saved card, exactly once:
 * one provider checkout per payment (its reference is the payment's, derived from membership and
 * period for renewals), the checkout read first (a run that crashed after paying is not charged
 * again), paid with the token, then read again, and only that verified answer is applied.
 */
export async function chargeMembership(
  db: Db,
  provider: PaymentProvider,
  charge: MembershipCharge,
  now: Date,
  webhookUrl: string,
  directDebit: () => GoCardlessClient | null = selectDirectDebit,
): Promise<ChargeResult> {
  const reference = charge.checkout_reference;
  const at = now.toISOString();
  const fail = async (reason: string, outcome: ChargeOutcome): Promise<ChargeResult> => {
    await rpc(db, 'fail_membership_charge', { p_checkout_reference: reference, p_attempt: charge.attempt, p_reason: reason, p_now: at });
    return { reference, outcome, detail: reason };
  };
  const release = async () => {
    await rpc(db, 'release_membership_charge', { p_checkout_reference: reference, p_attempt: charge.attempt });
  };
  const collection = await directDebitCollectionFor(db, charge, now);
  if (collection) {
    const collected = await collectDirectDebit(
      db,
      directDebit(),
      { ...charge, amount: Number(charge.amount) },
      collection,
      now,
      fail,
      release,
    );
    return { reference, ...collected };
  }
  if (!charge.card_token) return fail('no_card', 'no_card');

  let checkout: ProviderCheckout | null;
  try {
    checkout = await ensureChargeCheckout(db, provider, charge, webhookUrl);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // Nothing was sent to the card: the next run may try at once.
    await release();
    return { reference, outcome: 'error', detail: `${error.kind}: ${error.message}` };
  }

  try {
    if (checkout.status !== 'PAID') {
      await provider.payWithSavedCard(checkout.id, { customerId: charge.customer_id, token: charge.card_token });
      checkout = await provider.getCheckout(checkout.id);
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // The card may or may not have been charged: the claim stays until it runs out and the next
    // run reads the checkout before paying again.
    return { reference, outcome: 'error', detail: `${error.kind}: ${error.message}` };
  }

  if (checkout.reference !== reference) return { reference, outcome: 'error', detail: `the provider answered for ${checkout.reference}` };
  if (checkout.status === 'PAID') {
    const applied = await rpc(db, 'apply_membership_charge', {
      p_checkout_reference: reference,
      p_provider_checkout_id: checkout.id,
      p_provider_status: checkout.status,
      p_amount: checkout.amount,
      p_currency: checkout.currency,
      p_now: at,
    });
    const result = compositeRow<'checkout_result', 'outcome'>(applied);
    if (result.outcome === 'applied' || result.outcome === 'already_applied') return { reference, outcome: 'paid' };
    return { reference, outcome: 'error', detail: result.outcome };
  }
  if (checkout.status === 'FAILED' || checkout.status === 'EXPIRED') return fail('declined', 'declined');
  return { reference, outcome: 'pending' };
}

/** The payment's provider checkout: the one recorded, else a new one (or the one a crashed run made). */
async function ensureChargeCheckout(
  db: Db,
  provider: PaymentProvider,
  charge: MembershipCharge,
  webhookUrl: string,
): Promise<ProviderCheckout> {
  if (charge.provider_checkout_id) return provider.getCheckout(charge.provider_checkout_id);
  let id: string;
  try {
    id = await provider.createChargeCheckout({
      amount: Number(charge.amount),
      currency: 'GBP',
      reference: charge.checkout_reference,
      description: charge.description,
      returnUrl: webhookUrl,
      customerId: charge.customer_id,
    });
  } catch (error) {
    if (!(error instanceof ProviderError) || error.kind !== 'duplicate') throw error;
    const existing = await provider.findCheckoutByReference(charge.checkout_reference);
    if (!existing) throw error;
    id = existing.id;
  }
  await rpc(db, 'set_payment_checkout', { p_checkout_reference: charge.checkout_reference, p_provider_checkout_id: id });
  return provider.getCheckout(id);
}

/** Claims one membership payment as of `now` and charges it (first month, update card, upgrade). */
export async function claimAndCharge(
  db: Db,
  provider: PaymentProvider,
  reference: string,
  now: Date,
  webhookUrl: string,
  directDebit: () => GoCardlessClient | null = selectDirectDebit,
): Promise<ChargeResult | null> {
  const claimed = await rpc(db, 'claim_membership_charge', { p_checkout_reference: reference, p_now: now.toISOString() });
  // Nothing to charge (not due, or not allowed): null, which PostgREST answers as a row of nulls.
  if (!claimed?.checkout_reference) return null;
  return chargeMembership(
    db,
    provider,
    compositeRow<'membership_charge', MembershipChargeSetFields>(claimed),
    now,
    webhookUrl,
    directDebit,
  );
}
