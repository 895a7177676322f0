import { json, methodNotAllowed } from '../lib/http';
import { ConfigError, readServerEnv } from '../lib/server-env';
import { readSmsEnv } from '../lib/sms/sms-env';
import { validTwilioSignature } from '../lib/sms/twilio-signature';
import { serviceDb } from '../lib/supabase-server';

/** Twilio expects TwiML back; an empty Response sends no reply text (Twilio answers STOP itself). */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/**
 * Twilio's webhooks for the studio's number (decision 0041), each signed with X-Twilio-Signature
 * (HMAC-SHA1 of this URL and the sorted form parameters, keyed by the auth token); an unsigned or
 * wrongly signed request changes nothing (403).
 * - A status callback (MessageSid, MessageStatus): a text Twilio could not deliver is marked
 *   failed with its ErrorCode, for the admins' list and Retry.
 * - An inbound text (From, Body): STOP turns texts off for every member on that number, START
 *   back on (text_received).
 * The URL signed is the one Twilio was given: TWILIO_WEBHOOK_URL when set (behind a proxy that
 * rewrites the address), else this request's.
 */
export default async function smsWebhook(req: Request): Promise<Response> {
  if (req.method !== 'POST') return methodNotAllowed('POST');
  let token: string;
  let db;
  try {
    token = readSmsEnv().authToken;
    db = serviceDb(readServerEnv());
  } catch (error) {
    if (error instanceof ConfigError) return json({ error: 'not_configured', message: error.message }, 503);
    throw error;
  }
  const params = Object.fromEntries(new URLSearchParams(await req.text()));
  const url = process.env.TWILIO_WEBHOOK_URL?.trim() || req.url;
  if (!validTwilioSignature(token, req.headers.get('x-twilio-signature'), url, params)) {
    return json({ error: 'invalid_signature', message: 'This request is not signed by Twilio.' }, 403);
  }
  if (params.MessageSid && params.MessageStatus) {
    const { error } = await db.rpc('text_status', {
      p_provider_id: params.MessageSid,
      p_status: params.MessageStatus,
      p_error: params.ErrorCode ? `error ${params.ErrorCode}` : undefined,
    });
    if (error) return json({ error: 'status_failed', message: error.message }, 500);
  } else if (params.From && params.Body !== undefined) {
    const { error } = await db.rpc('text_received', { p_from: params.From, p_body: params.Body });
    if (error) return json({ error: 'inbound_failed', message: error.message }, 500);
  }
  return new Response(EMPTY_TWIML, { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } });
}
