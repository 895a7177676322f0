/**
 * The functions' environment: server-side only, never VITE_-prefixed, never in the bundle.
 * Read per request so tests (and the local stack) can change it between calls.
 */
export type ServerEnv = {
  supabaseUrl: string;
  serviceRoleKey: string;
  /** Origin of the SPA: the member comes back to `${siteUrl}/payment/return`. */
  siteUrl: string;
  /** Optional override of where the provider posts checkout notifications (its `return_url`). */
  paymentWebhookUrl: string;
  sumupApiKey: string;
  sumupMerchantCode: string;
};

export class ConfigError extends Error {}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True for a URL on this machine: the local stack, never a hosted Supabase project. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function readServerEnv(source: Record<string, string | undefined> = process.env): ServerEnv {
  const supabaseUrl = trimSlash(source.SUPABASE_URL ?? '');
  const serviceRoleKey = source.SUPABASE_SERVICE_ROLE_KEY ?? '';
  // Netlify sets URL (the site's main address) in every function; SITE_URL overrides it. Against
  // a local stack that did not pass SITE_URL on, the dev server's default address (vite.config.ts).
  const siteUrl = trimSlash(
    source.SITE_URL || source.URL || (isLoopbackUrl(supabaseUrl) ? `http://127.0.0.1:${source.SITE_PORT || '5173'}` : ''),
  );
  if (!supabaseUrl || !serviceRoleKey || !siteUrl) {
    throw new ConfigError('SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY and SITE_URL must be set for the payment functions');
  }
  return {
    supabaseUrl,
    serviceRoleKey,
    siteUrl,
    paymentWebhookUrl: source.PAYMENT_WEBHOOK_URL ?? '',
    sumupApiKey: source.SUMUP_API_KEY ?? '',
    sumupMerchantCode: source.SUMUP_MERCHANT_CODE ?? '',
  };
}
