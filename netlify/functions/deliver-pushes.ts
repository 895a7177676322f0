import { json } from '../lib/http';
import { recordRun } from '../lib/jobs/job-runs';
import { deliverPushes } from '../lib/push/deliver-pushes';
import { loopbackPushesAllowed } from '../lib/push/push-endpoint';
import { readPushEnv } from '../lib/push/push-env';
import { postgrestPushStore } from '../lib/push/push-store';
import { ConfigError, readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/**
 * Netlify runs this every minute (a scheduled function, like deliver-emails): it sends what the
 * push outbox holds as of now to each device's push service, signed with the VAPID keys. Quiet
 * hours, reminders' times and expiry are decided by dequeue_pushes; a device its push service
 * says is gone is removed; a failed push waits its backoff and goes again at a later run.
 */
export const config = { schedule: '* * * * *' };

export default async function deliverPushesNow(): Promise<Response> {
  try {
    const env = readServerEnv();
    const db = serviceDb(env);
    const now = new Date();
    const vapid = readPushEnv();
    // Each run is recorded (decision 0046): the watchdog notices when the runs stop or keep failing.
    const report = await recordRun(
      db,
      'pushes',
      now,
      () => deliverPushes({ store: postgrestPushStore(db), vapid, now, allowLoopback: loopbackPushesAllowed(env.supabaseUrl) }),
      (r) => `sent ${r.sent}, retrying ${r.retrying}, failed ${r.failed}, devices gone ${r.gone}`,
    );
    if (report.sent || report.retrying || report.failed || report.gone) {
      console.log(
        `[deliver-pushes] sent ${report.sent}, retrying ${report.retrying}, failed ${report.failed}, devices gone ${report.gone}`,
      );
    }
    return json(report);
  } catch (error) {
    console.error('[deliver-pushes] failed', error);
    return json({ error: 'delivery_failed', message: 'Could not deliver the queued pushes.' }, error instanceof ConfigError ? 503 : 500);
  }
}
