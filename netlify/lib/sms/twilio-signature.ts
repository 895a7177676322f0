import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's webhook signature (X-Twilio-Signature): base64 of HMAC-SHA1, keyed by the auth token,
 * of the full URL Twilio called followed by every POST parameter, sorted by name, as name + value.
 */
export function twilioSignature(authToken: string, url: string, params: Readonly<Record<string, string>>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Whether the header is Twilio's signature of this request (compared in constant time). */
export function validTwilioSignature(
  authToken: string,
  header: string | null,
  url: string,
  params: Readonly<Record<string, string>>,
): boolean {
  if (!header) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
