import { json } from '../lib/http';
import { formatReports, runScheduledJobs } from '../lib/jobs/scheduled-jobs';
import { paymentWebhookUrl, selectProvider } from '../lib/payments/select-provider';
import { ConfigError, readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/**
 * Netlify runs this every hour (a scheduled function: not callable by URL in production): trial
 * expiry, payment-hold release, cancelled memberships ending, renewals and retries with the saved
 * card, renewal and trial reminders, class reminders, all as of now. Locally:
 * `npm run jobs -- --at <ISO time>`.
 */
export const config = { schedule: '@hourly' };

export default async function runJobs(): Promise<Response> {
  try {
    const env = readServerEnv();
    const reports = await runScheduledJobs(serviceDb(env), selectProvider(env), new Date(), paymentWebhookUrl(env));
    console.log(`[run-jobs]\n${formatReports(reports)}`);
    return json({ reports });
  } catch (error) {
    console.error('[run-jobs] failed', error);
    return json({ error: 'jobs_failed', message: 'The scheduled jobs failed.' }, error instanceof ConfigError ? 503 : 500);
  }
}
