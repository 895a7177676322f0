import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Inbox } from '../../supabase/local/mail/inbox';
import { startSmtpInbox, type SmtpInbox } from '../../supabase/local/mail/smtp-inbox';
import { SERVICE_KEY, setUpFakeSupabase } from '../tests/fake-supabase';
import deliverEmails, { config } from './deliver-emails';

// The scheduled function's own job: read its settings, drain through PostgREST as the service role,
// send through SMTP_URL (a real SMTP server here). The outbox SQL and the sender's retries are
// tested against the engine in netlify/lib/email/deliver-outbox.test.ts.
const { fake, stubEnv: stubSupabaseEnv } = setUpFakeSupabase();
const inbox = new Inbox();
let smtp: SmtpInbox;

beforeAll(async () => {
  smtp = await startSmtpInbox(inbox);
});
afterAll(async () => {
  await smtp.stop();
});

function stubEnv() {
  stubSupabaseEnv();
  vi.stubEnv('SMTP_URL', smtp.url.replace('smtp://', 'smtp://user:p%40ss@'));
  vi.stubEnv('MAIL_FROM', 'Finer Fitness <hello@finerfitness.example>');
}

const ROW = {
  id: '7d8a4c1e-1111-4a4a-9b9b-000000000001',
  kind: 'booking_cancelled',
  to_email: 'member@example.test',
  reply_to: null,
  subject: 'Booking cancelled: Yoga, Monday 6 October 2031, 6:00 AM',
  body_text: 'Hi Mia,\n\nYour booking for Yoga with Coach Alex has been cancelled.',
  links: [{ label: 'Book another class', path: '/my-schedule' }],
  attempts: 1,
  class_name: 'Yoga',
  class_trainer: 'Coach Alex',
  class_when: 'Monday 6 October 2031, 6:00 AM',
  unsubscribe_token: null,
};

describe('deliver-emails', () => {
  it('runs every minute', () => {
    expect(config).toEqual({ schedule: '* * * * *' });
  });

  it('takes due emails as the service role and sends them through SMTP_URL from MAIL_FROM', async () => {
    stubEnv();
    fake.answerRpc('dequeue_notifications', [ROW]);
    const before = Date.now();
    const res = await deliverEmails();
    expect(await res.json()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    const [call] = fake.calls('dequeue_notifications');
    expect(call!.authorization).toBe(`Bearer ${SERVICE_KEY}`);
    expect(Date.parse(call!.args.p_now as string)).toBeGreaterThanOrEqual(before - 1000);
    const mail = inbox.list().find((e) => e.subject === ROW.subject)!;
    expect(mail).toMatchObject({ to: 'member@example.test', from: 'hello@finerfitness.example' });
    expect(mail.text).toContain('Book another class: https://studio.example/my-schedule');
  });

  it('answers 503 without SMTP settings and sends nothing', async () => {
    stubEnv();
    vi.stubEnv('SMTP_URL', '');
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await deliverEmails();
    error.mockRestore();
    expect(res.status).toBe(503);
    expect(fake.rpcCalls).toEqual([]);
  });
});
