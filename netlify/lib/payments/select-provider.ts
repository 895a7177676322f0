import { ConfigError, isLoopbackUrl, type ServerEnv } from '../server-env';
import type { PaymentProvider } from './provider';
import { SumUpProvider } from './sumup-provider';
import { TestProvider, testProviderStore } from './test-provider';

/**
 * Where the local stack keeps the test provider's checkouts (set by the stack for its data folder),
 * so the gateway's functions and `npm run jobs` share them; unset (tests): in memory.
 */
export const TEST_PAYMENTS_FILE_ENV = 'TEST_PAYMENTS_FILE';
const testPaymentsFile = () => process.env[TEST_PAYMENTS_FILE_ENV] || undefined;

/** The test provider's checkouts, as the active test provider keeps them (the test page reads them). */
export function activeTestStore() {
  return testProviderStore(testPaymentsFile());
}

/** True when the functions talk to a local stack (never a hosted Supabase project). */
export function isLocalStack(env: ServerEnv): boolean {
  return isLoopbackUrl(env.supabaseUrl);
}

/**
 * SumUp when its key is set. Without a key, the test provider, but only against a local stack:
 * a deployed site with a missing key must fail closed rather than accept test "payments".
 * `now` is the test provider's clock (the jobs command runs it at --at); SumUp has its own.
 */
export function selectProvider(env: ServerEnv, options: { now?: () => number } = {}): PaymentProvider {
  if (env.sumupApiKey) return new SumUpProvider({ apiKey: env.sumupApiKey, merchantCode: env.sumupMerchantCode });
  if (isLocalStack(env))
    return new TestProvider(`${env.supabaseUrl}/.netlify/functions`, { storeFile: testPaymentsFile(), now: options.now });
  throw new ConfigError('SUMUP_API_KEY is not set: card payments are unavailable (the test checkout only runs with the local stack)');
}

/** The test provider is active exactly when selectProvider would pick it. */
export function testProviderActive(env: ServerEnv): boolean {
  return !env.sumupApiKey && isLocalStack(env);
}

/**
 * The provider's `return_url`: the payment webhook. Locally the gateway serves the functions
 * itself; deployed, Netlify serves them on the site's own origin.
 */
export function paymentWebhookUrl(env: ServerEnv): string {
  if (env.paymentWebhookUrl) return env.paymentWebhookUrl;
  return `${isLocalStack(env) ? env.supabaseUrl : env.siteUrl}/.netlify/functions/payment-webhook`;
}
