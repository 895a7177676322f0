import { deliverOutbox } from '../lib/email/deliver-outbox';
import { readMailEnv } from '../lib/email/mail-env';
import { postgrestOutboxStore } from '../lib/email/outbox-store';
import { createSmtpTransport } from '../lib/email/smtp-transport';
import { json } from '../lib/http';
import { recordRun } from '../lib/jobs/job-runs';
import { ConfigError, readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/**
 * Netlify runs this every minute (a scheduled function: cron in UTC, at most 30 s a run, not
 * callable by URL in production). It sends what the outbox holds through SMTP_URL; a failed email
 * waits its backoff and goes again at a later run, and after the last attempt admins see it.
 */
export const config = { schedule: '* * * * *' };

export default async function deliverEmails(): Promise<Response> {
  try {
    const env = readServerEnv();
    const mail = readMailEnv();
    const transport = createSmtpTransport(mail.smtpUrl);
    try {
      const db = serviceDb(env);
      const now = new Date();
      // Each run is recorded (decision 0046): the watchdog notices when the runs stop or keep failing.
      const report = await recordRun(
        db,
        'emails',
        now,
        () => deliverOutbox({ store: postgrestOutboxStore(db), transport, from: mail.from, siteUrl: env.siteUrl, now }),
        (r) => `sent ${r.sent}, retrying ${r.retrying}, failed ${r.failed}`,
      );
      if (report.sent || report.retrying || report.failed) {
        console.log(`[deliver-emails] sent ${report.sent}, retrying ${report.retrying}, failed ${report.failed}`);
      }
      return json({ sent: report.sent, retrying: report.retrying, failed: report.failed });
    } finally {
      transport.close();
    }
  } catch (error) {
    console.error('[deliver-emails] failed', error);
    const status = error instanceof ConfigError ? 503 : 500;
    return json({ error: 'delivery_failed', message: 'Could not deliver the queued emails.' }, status);
  }
}
