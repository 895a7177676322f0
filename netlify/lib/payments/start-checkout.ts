import type { ServerEnv } from '../server-env';
import { serviceDb } from '../supabase-server';
import { returnPageUrl } from './payment-rules';
import { ProviderError, type PaymentProvider } from './provider';
import { paymentWebhookUrl } from './select-provider';

/** `returnPath`: where the browser lands after paying (default the member's return page, RETURN_PATH). */
type PendingPayment = { reference: string; amount: number; description: string; returnPath?: string };

/**
 * Creates the provider checkout for a payment row already recorded as pending, and remembers its
 * id. If the provider refuses or cannot be reached, the payment fails and any class hold is
 * released at once (abandon_payment), and the answer is null: the caller shows the spec's alert.
 */
export async function startCheckout(env: ServerEnv, provider: PaymentProvider, payment: PendingPayment): Promise<string | null> {
  const db = serviceDb(env);
  let checkout;
  try {
    checkout = await provider.createCheckout({
      amount: payment.amount,
      currency: 'GBP',
      reference: payment.reference,
      description: payment.description,
      returnUrl: paymentWebhookUrl(env),
      redirectUrl: returnPageUrl(env.siteUrl, payment.reference, payment.returnPath),
    });
  } catch (error) {
    const { error: abandonError } = await db.rpc('abandon_payment', { p_checkout_reference: payment.reference });
    if (abandonError) console.error(`[payments] could not abandon ${payment.reference}: ${abandonError.message}`);
    if (error instanceof ProviderError) {
      console.error(`[payments] ${provider.name} refused checkout ${payment.reference} (${error.kind}): ${error.message}`);
      return null;
    }
    throw error;
  }

  const { error } = await db.rpc('set_payment_checkout', {
    p_checkout_reference: payment.reference,
    p_provider_checkout_id: checkout.id,
    p_checkout_url: checkout.url,
  });
  if (error) throw new Error(`set_payment_checkout failed: ${error.message}`);
  return checkout.url;
}
