import type { SmsEnv } from './sms-env';

/** One text to send: to an E.164 number, with a URL the provider reports its delivery to. */
export type SmsMessage = { to: string; body: string; statusCallback?: string };

/** The SMS channel's provider (decision 0041): sends one text and returns its id. */
export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage): Promise<{ id: string }>;
}

export type SmsFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ status: number; text(): Promise<string> }>;

const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Twilio's Messages API: POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To,
 * From, Body (and StatusCallback), HTTP basic auth with the account SID and auth token. 201 answers
 * the message resource (its sid); anything else is an error with Twilio's code and message (e.g.
 * 21211, an invalid To), which the pipeline retries and then shows the admins.
 */
export function twilioProvider(env: SmsEnv, fetchImpl: SmsFetch = fetch): SmsProvider {
  const url = `${env.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(env.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${env.accountSid}:${env.authToken}`).toString('base64')}`;
  return {
    name: env.apiUrl === 'https://api.twilio.com' ? 'twilio' : `twilio at ${env.apiUrl}`,
    async send(message) {
      const form = new URLSearchParams({ To: message.to, From: env.from, Body: message.body });
      if (message.statusCallback) form.set('StatusCallback', message.statusCallback);
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      let parsed: { sid?: unknown; code?: unknown; message?: unknown } = {};
      try {
        parsed = JSON.parse(text) as typeof parsed;
      } catch {
        // Not JSON (a proxy's error page): reported by status below.
      }
      if (res.status === 201 || res.status === 200) {
        if (typeof parsed.sid !== 'string') throw new Error(`Twilio answered ${res.status} without a message sid`);
        return { id: parsed.sid };
      }
      const code = typeof parsed.code === 'number' || typeof parsed.code === 'string' ? ` ${parsed.code}` : '';
      throw new Error(`Twilio ${res.status}${code}: ${typeof parsed.message === 'string' ? parsed.message : text.slice(0, 200)}`);
    },
  };
}
