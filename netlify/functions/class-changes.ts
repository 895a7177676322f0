import { json } from '../lib/http';
import { tellClassChanges } from '../lib/jobs/scheduled-jobs';
import { ConfigError, readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/**
 * Netlify runs this every minute: class edits left alone for the quiet period (five minutes) are
 * told to the members booked and waitlisted (decision 0042). The hourly run-jobs runs it too.
 */
export const config = { schedule: '* * * * *' };

export default async function classChangesNow(): Promise<Response> {
  try {
    const env = readServerEnv();
    const report = await tellClassChanges(serviceDb(env), new Date());
    return json(report);
  } catch (error) {
    console.error('[class-changes] failed', error);
    return json(
      { error: 'class_changes_failed', message: 'Could not tell members of class changes.' },
      error instanceof ConfigError ? 503 : 500,
    );
  }
}
