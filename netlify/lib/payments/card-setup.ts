import { compositeRow, type CompositeRow } from '../../../src/lib/composite-row';
import type { CompositeTypes } from '../../../src/lib/database.types';
import type { ServerEnv } from '../server-env';
import { serviceDb } from '../supabase-server';
import { claimAndCharge, type ChargeResult } from './membership-charge';
import { cardSavedPageUrl, returnPageUrl } from './payment-rules';
import { ProviderError, type PaymentProvider, type ProviderCheckout } from './provider';
import { paymentWebhookUrl } from './select-provider';

type CardSetupSetFields = 'payment_reference' | 'setup_reference' | 'amount' | 'currency' | 'description' | 'customer_id' | 'member_email';

/** public.card_setup_checkout: a card-saving checkout to start, and the payment it leads to (every field set but the name). */
export type CardSetupCheckout = CompositeRow<'card_setup_checkout', CardSetupSetFields>;

/** A card-saving checkout that may have no payment behind it (payment_reference null: decision 0104). */
export type CardUpdateCheckout = CompositeRow<'card_setup_checkout', Exclude<CardSetupSetFields, 'payment_reference'>>;

/** What start_membership_checkout returns, as CardSetupCheckout. */
export const cardSetupCheckout = (data: CompositeTypes<'card_setup_checkout'>) =>
  compositeRow<'card_setup_checkout', CardSetupSetFields>(data);

/** What start_card_update returns: for a past-due renewal, or for a card saved with nothing due. */
export const cardUpdateCheckout = (data: CompositeTypes<'card_setup_checkout'>) =>
  compositeRow<'card_setup_checkout', Exclude<CardSetupSetFields, 'payment_reference'>>(data);

/** Card-saving checkouts have their own references (private.card_setups). */
export const isCardSetupReference = (reference: string) => reference.startsWith('setup-');

/**
 * Sends the member to a card-saving checkout (provider purpose SETUP_RECURRING_PAYMENT) for the
 * payment recorded by start_membership_checkout or start_card_update. The return page follows the
 * payment, which is charged with the saved card once the provider confirms the card. With no
 * payment (a card saved with nothing due, decision 0104) SumUp only authorises the amount and gives
 * it back, and the member comes back to My Membership. Returns the checkout URL, or null when the
 * provider refused (the setup is abandoned).
 */
export async function startCardSetup(env: ServerEnv, provider: PaymentProvider, setup: CardUpdateCheckout): Promise<string | null> {
  const db = serviceDb(env);
  try {
    await provider.ensureCustomer({ customerId: setup.customer_id, email: setup.member_email, name: setup.member_name });
    const checkout = await provider.createCheckout({
      amount: Number(setup.amount),
      currency: 'GBP',
      reference: setup.setup_reference,
      description: setup.description,
      returnUrl: paymentWebhookUrl(env),
      redirectUrl: setup.payment_reference
        ? returnPageUrl(env.siteUrl, setup.payment_reference)
        : cardSavedPageUrl(env.siteUrl, setup.setup_reference),
      customerId: setup.customer_id,
      purpose: 'SETUP_RECURRING_PAYMENT',
    });
    const { error } = await db.rpc('set_card_setup_checkout', {
      p_setup_reference: setup.setup_reference,
      p_provider_checkout_id: checkout.id,
    });
    if (error) throw new Error(`set_card_setup_checkout failed: ${error.message}`);
    return checkout.url;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    console.error(`[payments] ${provider.name} refused card setup ${setup.setup_reference} (${error.kind}): ${error.message}`);
    const { error: abandonError } = await db.rpc('abandon_card_setup', { p_setup_reference: setup.setup_reference });
    if (abandonError) console.error(`[payments] could not abandon ${setup.setup_reference}: ${abandonError.message}`);
    return null;
  }
}

export type CardSetupOutcome = { outcome: string; charge: ChargeResult | null };

/**
 * A card-saving checkout the provider has answered for (already fetched by id): saves the card when
 * it is paid and has a token, then charges what it was started for with it. Idempotent: a replayed
 * notification finds the setup applied and the payment already paid (or claimed).
 */
export async function applyVerifiedCardSetup(
  env: ServerEnv,
  provider: PaymentProvider,
  checkout: ProviderCheckout,
): Promise<CardSetupOutcome> {
  const db = serviceDb(env);
  const now = new Date();
  const { data, error } = await db.rpc('apply_card_setup', {
    p_setup_reference: checkout.reference,
    p_provider_checkout_id: checkout.id,
    p_provider_status: checkout.status,
    p_amount: checkout.amount,
    p_currency: checkout.currency,
    p_customer_id: checkout.customerId ?? null,
    p_token: checkout.cardToken ?? null,
    p_now: now.toISOString(),
  });
  if (error) throw new Error(`apply_card_setup failed: ${error.message}`);
  const result = compositeRow<'card_setup_result', 'outcome'>(data);
  if (result.outcome === 'mismatch' || result.outcome === 'unknown_reference') {
    console.warn(`[payments] card setup ${checkout.id} (${checkout.reference}, ${checkout.status}): ${result.outcome}; nothing changed`);
  }
  const charge = result.charge_reference ? await claimAndCharge(db, provider, result.charge_reference, now, paymentWebhookUrl(env)) : null;
  return { outcome: result.outcome, charge };
}
