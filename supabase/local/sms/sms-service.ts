import { randomBytes } from 'node:crypto';
import { LOCAL_TWILIO } from '../../../netlify/lib/sms/sms-env';

/** A text the local fake accepted, as Twilio's message resource names its fields. */
export type LocalText = {
  sid: string;
  to: string;
  from: string;
  body: string;
  status: 'queued' | 'delivered';
  status_callback: string | null;
  date_created: string;
};

export type SendAnswer = { status: number; body: Record<string, unknown> };

/**
 * The local stack's SMS provider (decision 0041): Twilio's Messages API on loopback, so the
 * production client (netlify/lib/sms) posts to it unchanged. It checks what Twilio checks first
 * (the account in the path, basic auth, a To in E.164, a From and a Body) and answers with
 * Twilio's resource or error shape; accepted texts are kept for /sms, newest first.
 */
export class LocalSmsService {
  private texts: LocalText[] = [];

  list(): LocalText[] {
    return [...this.texts];
  }

  clear(): void {
    this.texts = [];
  }

  send(accountSid: string, authorization: string | undefined, form: URLSearchParams, now = new Date()): SendAnswer {
    const expected = `Basic ${Buffer.from(`${LOCAL_TWILIO.accountSid}:${LOCAL_TWILIO.authToken}`).toString('base64')}`;
    if (accountSid !== LOCAL_TWILIO.accountSid || authorization !== expected) {
      return { status: 401, body: { code: 20003, message: 'Authenticate', status: 401 } };
    }
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const body = form.get('Body') ?? '';
    if (!/^\+[1-9][0-9]{7,14}$/.test(to)) {
      return { status: 400, body: { code: 21211, message: `The 'To' number ${to} is not a valid phone number.`, status: 400 } };
    }
    if (!from) return { status: 400, body: { code: 21603, message: "A 'From' phone number is required.", status: 400 } };
    if (!body) return { status: 400, body: { code: 21602, message: 'Message body is required.', status: 400 } };
    if (body.length > 1600)
      return {
        status: 400,
        body: { code: 21617, message: 'The concatenated message body exceeds the 1600 character limit.', status: 400 },
      };
    const text: LocalText = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      to,
      from,
      body,
      status: 'queued',
      status_callback: form.get('StatusCallback'),
      date_created: now.toUTCString(),
    };
    this.texts.unshift(text);
    return { status: 201, body: { ...text, account_sid: accountSid, num_segments: String(Math.ceil(body.length / 153) || 1) } };
  }
}
