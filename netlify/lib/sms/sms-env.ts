import { ConfigError, isLoopbackUrl } from '../server-env';

/**
 * Twilio's Messages API (decision 0041): the account SID and auth token (HTTP basic auth, and the
 * key of the webhooks' X-Twilio-Signature), the sender (a UK number or an alphanumeric sender ID
 * such as STUDIO) and the API's origin (the local stack's fake speaks the same API at /sms).
 */
export type SmsEnv = { accountSid: string; authToken: string; from: string; apiUrl: string };

/** The local stack's fake Twilio (supabase/local/sms): fixed credentials, never valid at Twilio. */
export const LOCAL_TWILIO = {
  accountSid: `AC${'0'.repeat(32)}`,
  authToken: 'local-twilio-auth-token',
  from: '+447700900000',
} as const;

export function readSmsEnv(source: Record<string, string | undefined> = process.env): SmsEnv {
  const accountSid = source.TWILIO_ACCOUNT_SID?.trim() ?? '';
  const authToken = source.TWILIO_AUTH_TOKEN?.trim() ?? '';
  const from = source.TWILIO_FROM?.trim() ?? '';
  if (!accountSid || !authToken || !from) {
    throw new ConfigError('TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set to send texts');
  }
  if (!/^AC[0-9a-f]{32}$/i.test(accountSid)) throw new ConfigError('TWILIO_ACCOUNT_SID must be an account SID (AC and 32 hex digits)');
  if (!/^(\+[1-9][0-9]{7,14}|[A-Za-z0-9 ]{1,11})$/.test(from)) {
    throw new ConfigError('TWILIO_FROM must be a number in E.164 (+447...) or an alphanumeric sender ID of up to 11 characters');
  }
  const apiUrl = (source.TWILIO_API_URL?.trim() || 'https://api.twilio.com').replace(/\/+$/, '');
  // Texts go to Twilio over https; plain http only to the local stack's fake on this machine.
  if (!apiUrl.startsWith('https://') && !isLoopbackUrl(apiUrl)) throw new ConfigError('TWILIO_API_URL must be https');
  return { accountSid, authToken, from, apiUrl };
}

/**
 * The TWILIO_* a local stack at `gatewayUrl` gives its functions and senders: the real account's
 * when TWILIO_ACCOUNT_SID is set in `env`, else its own fake Twilio at /sms.
 */
export function localTwilioEnv(gatewayUrl: string, env: Record<string, string | undefined> = {}): Record<string, string> {
  if (env.TWILIO_ACCOUNT_SID?.trim()) {
    const keys = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM', 'TWILIO_API_URL'] as const;
    return Object.fromEntries(keys.filter((k) => env[k]).map((k) => [k, env[k]!]));
  }
  return {
    TWILIO_ACCOUNT_SID: LOCAL_TWILIO.accountSid,
    TWILIO_AUTH_TOKEN: LOCAL_TWILIO.authToken,
    TWILIO_FROM: LOCAL_TWILIO.from,
    TWILIO_API_URL: `${gatewayUrl}/sms`,
  };
}
