import { checkedText } from '../../../src/lib/checked-text';
import { compositeRow } from '../../../src/lib/composite-row';
import type { ServerEnv } from '../server-env';
import { serviceDb } from '../supabase-server';
import { applyVerifiedCardSetup, isCardSetupReference } from './card-setup';
import { ProviderError, type PaymentProvider } from './provider';

export type ApplyOutcome =
  'applied' | 'already_applied' | 'marked_failed' | 'still_pending' | 'unknown_reference' | 'mismatch' | 'unknown_checkout';

export type ApplyResult = { outcome: ApplyOutcome; paymentId: string | null; status: string | null };

/**
 * The one path from "the provider says something changed" to the database: fetch the checkout
 * from the provider by id (never trust a notification's body), then let apply_checkout_result
 * match amount, currency, reference and checkout id against our payment row and apply it
 * idempotently. Used by the webhook and by the return page's status check. A card-saving checkout
 * (a membership) saves the card and charges the membership payment it was started for.
 * Throws ProviderError when the provider cannot be asked (so the webhook answers non-2xx and is retried).
 */
export async function verifyAndApplyCheckout(env: ServerEnv, provider: PaymentProvider, checkoutId: string): Promise<ApplyResult> {
  let checkout;
  try {
    checkout = await provider.getCheckout(checkoutId);
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'not_found') {
      console.warn(`[payments] ignored notification for checkout ${checkoutId}: the provider does not know it`);
      return { outcome: 'unknown_checkout', paymentId: null, status: null };
    }
    throw error;
  }
  if (checkout.id !== checkoutId) {
    console.warn(`[payments] ignored notification for checkout ${checkoutId}: the provider answered for ${checkout.id}`);
    return { outcome: 'mismatch', paymentId: null, status: null };
  }

  if (isCardSetupReference(checkout.reference)) {
    const setup = await applyVerifiedCardSetup(env, provider, checkout);
    return { outcome: checkedText<ApplyOutcome>(setup.outcome), paymentId: null, status: setup.charge?.outcome ?? null };
  }

  const { data, error } = await serviceDb(env).rpc('apply_checkout_result', {
    p_checkout_reference: checkout.reference,
    p_provider_checkout_id: checkout.id,
    p_provider_status: checkout.status,
    p_amount: checkout.amount,
    p_currency: checkout.currency,
  });
  if (error) throw new Error(`apply_checkout_result failed: ${error.message}`);
  const row = compositeRow<'checkout_result', 'outcome'>(data);
  const outcome = checkedText<ApplyOutcome>(row.outcome);

  if (outcome === 'mismatch' || outcome === 'unknown_reference') {
    console.warn(
      `[payments] ${outcome}: checkout ${checkout.id} (reference ${checkout.reference}, ${checkout.status}, ` +
        `${checkout.amount} ${checkout.currency}) does not match a payment; nothing changed`,
    );
  }
  return { outcome, paymentId: row.payment_id, status: row.status };
}
