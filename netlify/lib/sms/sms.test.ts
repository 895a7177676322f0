import { describe, expect, it } from 'vitest';
import { LocalSmsService } from '../../../supabase/local/sms/sms-service';
import { ConfigError } from '../server-env';
import { deliverTexts } from './deliver-texts';
import { LOCAL_TWILIO, localTwilioEnv, readSmsEnv } from './sms-env';
import { twilioProvider, type SmsFetch } from './sms-provider';
import type { OutboxText, TextStore } from './text-store';
import { twilioSignature, validTwilioSignature } from './twilio-signature';

// The SMS channel's sender side (decision 0041): Twilio's signature, the Messages API client
// against the local fake that speaks it, the environment, and a run of the sender.

describe("Twilio's webhook signature", () => {
  // Twilio's published example (docs, "Webhooks security"): token 12345, this URL and form.
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };

  it('is the documented HMAC-SHA1 of the URL and the sorted parameters', () => {
    expect(twilioSignature('12345', url, params)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    expect(validTwilioSignature('12345', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', url, params)).toBe(true);
  });

  it('refuses a missing header, another token, another URL or a changed parameter', () => {
    expect(validTwilioSignature('12345', null, url, params)).toBe(false);
    expect(validTwilioSignature('54321', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', url, params)).toBe(false);
    expect(validTwilioSignature('12345', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', `${url}&x=1`, params)).toBe(false);
    expect(validTwilioSignature('12345', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', url, { ...params, Digits: '9999' })).toBe(false);
  });
});

describe('the SMS environment', () => {
  it('needs the account SID, auth token and sender, and Twilio over https', () => {
    expect(() => readSmsEnv({})).toThrow(ConfigError);
    expect(() => readSmsEnv({ TWILIO_ACCOUNT_SID: 'nope', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+447700900000' })).toThrow(/account SID/);
    const env = { TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`, TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: 'STUDIO' };
    expect(readSmsEnv(env).apiUrl).toBe('https://api.twilio.com');
    expect(() => readSmsEnv({ ...env, TWILIO_API_URL: 'http://example.com' })).toThrow(/https/);
  });

  it("is the local stack's fake Twilio unless real keys are set", () => {
    expect(readSmsEnv(localTwilioEnv('http://127.0.0.1:54321'))).toEqual({ ...LOCAL_TWILIO, apiUrl: 'http://127.0.0.1:54321/sms' });
    const real = { TWILIO_ACCOUNT_SID: `AC${'b'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'real', TWILIO_FROM: '+447700900999' };
    expect(localTwilioEnv('http://127.0.0.1:54321', real)).toEqual(real);
  });
});

/** fetch into the local fake, as the gateway would route it. */
function fakeTwilio(service: LocalSmsService): SmsFetch {
  return (url, init) => {
    const sid = /\/Accounts\/([^/]+)\/Messages\.json$/.exec(url)?.[1] ?? '';
    const answer = service.send(decodeURIComponent(sid), init.headers.authorization, new URLSearchParams(init.body));
    return Promise.resolve({ status: answer.status, text: () => Promise.resolve(JSON.stringify(answer.body)) });
  };
}

describe("Twilio's Messages API client", () => {
  const env = { ...LOCAL_TWILIO, apiUrl: 'http://127.0.0.1:1/sms' };

  it('posts To, From and Body form-encoded with basic auth and returns the message sid', async () => {
    const service = new LocalSmsService();
    const { id } = await twilioProvider(env, fakeTwilio(service)).send({ to: '+447700900123', body: 'Hello\nReply STOP to opt out' });
    expect(id).toMatch(/^SM[0-9a-f]{32}$/);
    expect(service.list()).toEqual([
      expect.objectContaining({ sid: id, to: '+447700900123', from: LOCAL_TWILIO.from, body: 'Hello\nReply STOP to opt out' }),
    ]);
  });

  it("reports Twilio's refusal with its code: a bad number, wrong keys", async () => {
    const service = new LocalSmsService();
    await expect(twilioProvider(env, fakeTwilio(service)).send({ to: '07700', body: 'x' })).rejects.toThrow(
      "Twilio 400 21211: The 'To' number 07700 is not a valid phone number.",
    );
    await expect(
      twilioProvider({ ...env, authToken: 'wrong' }, fakeTwilio(service)).send({ to: '+447700900123', body: 'x' }),
    ).rejects.toThrow('Twilio 401 20003: Authenticate');
    expect(service.list()).toEqual([]);
  });
});

describe('a run of the text sender', () => {
  it('sends each due text once, records its sid, and gives back one the provider refused', async () => {
    const service = new LocalSmsService();
    const due: OutboxText[] = [
      { id: 't-1', kind: 'class_reminder', to_phone: '+447700900123', body: 'Reminder', attempts: 1 },
      { id: 't-2', kind: 'class_cancelled', to_phone: '+4', body: 'Cancelled', attempts: 1 },
    ];
    const accepted: [string, string][] = [];
    const requeued: [string, string][] = [];
    const store: TextStore = {
      dequeue: () => Promise.resolve(due.splice(0)),
      accepted: (id, sid) => Promise.resolve((accepted.push([id, sid]), true)),
      requeue: (id, error) => Promise.resolve((requeued.push([id, error]), { id, status: 'retrying', attempts: 1, next_attempt_at: null })),
    };
    const report = await deliverTexts({
      store,
      provider: twilioProvider({ ...LOCAL_TWILIO, apiUrl: 'http://127.0.0.1:1/sms' }, fakeTwilio(service)),
      now: new Date(),
      log: { error: () => {} },
    });
    expect(report).toEqual({ sent: 1, retrying: 1, failed: 0 });
    expect(accepted).toEqual([['t-1', service.list()[0]!.sid]]);
    expect(requeued).toEqual([['t-2', "Twilio 400 21211: The 'To' number +4 is not a valid phone number."]]);
  });
});
