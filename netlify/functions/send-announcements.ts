import { json } from '../lib/http';
import { queueDueAnnouncements } from '../lib/jobs/scheduled-jobs';
import { ConfigError, readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/**
 * Netlify runs this every minute: announcements whose send time has come are queued for their
 * segment, once each (decision 0090); the senders deliver them at the throttled pace. The hourly
 * run-jobs runs it too.
 */
export const config = { schedule: '* * * * *' };

export default async function sendAnnouncementsNow(): Promise<Response> {
  try {
    const env = readServerEnv();
    const report = await queueDueAnnouncements(serviceDb(env), new Date());
    return json(report);
  } catch (error) {
    console.error('[send-announcements] failed', error);
    return json(
      { error: 'announcements_failed', message: 'Could not send the announcements that are due.' },
      error instanceof ConfigError ? 503 : 500,
    );
  }
}
