import { describe, expect, it, vi } from 'vitest';
import { setUpFakeSupabase } from '../tests/fake-supabase';
import { LOCAL_TWILIO } from '../lib/sms/sms-env';
import { twilioSignature } from '../lib/sms/twilio-signature';
import smsWebhook from './sms-webhook';

// Twilio's webhooks (decision 0041): only a request signed with the auth token reaches the
// database; a STOP reply and a failed delivery become their RPCs.
const { fake, stubEnv } = setUpFakeSupabase();
const URL_CALLED = 'https://studio.example/.netlify/functions/sms-webhook';

function request(params: Record<string, string>, signature: string | null) {
  return new Request(URL_CALLED, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
    body: new URLSearchParams(params).toString(),
  });
}

function env() {
  stubEnv();
  vi.stubEnv('TWILIO_ACCOUNT_SID', LOCAL_TWILIO.accountSid);
  vi.stubEnv('TWILIO_AUTH_TOKEN', 'webhook-test-token');
  vi.stubEnv('TWILIO_FROM', LOCAL_TWILIO.from);
}

describe('sms-webhook', () => {
  it('refuses an unsigned or wrongly signed request and changes nothing', async () => {
    env();
    const stop = { From: '+447700900123', Body: 'STOP' };
    expect((await smsWebhook(request(stop, null))).status).toBe(403);
    expect((await smsWebhook(request(stop, twilioSignature('another-token', URL_CALLED, stop)))).status).toBe(403);
    expect(fake.rpcCalls).toEqual([]);
  });

  it('passes a signed STOP and a signed failed delivery to the database, answering empty TwiML', async () => {
    env();
    fake.answerRpc('text_received', 1);
    fake.answerRpc('text_status', true);
    const stop = { From: '+447700900123', To: LOCAL_TWILIO.from, Body: 'STOP' };
    const res = await smsWebhook(request(stop, twilioSignature('webhook-test-token', URL_CALLED, stop)));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    const status = { MessageSid: 'SMabc', MessageStatus: 'undelivered', ErrorCode: '30003' };
    expect((await smsWebhook(request(status, twilioSignature('webhook-test-token', URL_CALLED, status)))).status).toBe(200);
    expect(fake.calls('text_received')[0]!.args).toEqual({ p_from: '+447700900123', p_body: 'STOP' });
    expect(fake.calls('text_status')[0]!.args).toEqual({ p_provider_id: 'SMabc', p_status: 'undelivered', p_error: 'error 30003' });
  });
});
