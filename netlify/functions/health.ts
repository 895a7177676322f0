import { compositeRows } from '../../src/lib/composite-row';
import { json, methodNotAllowed } from '../lib/http';
import { checkSystemHealth } from '../lib/jobs/job-runs';
import { readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/** One recorded job as the outside check reports it (public.job_health, 26_health.sql). */
export type JobHealthAnswer = {
  job: string;
  lastStartedAt: string | null;
  lastOutcome: string | null;
  lastSucceededAt: string | null;
  overdue: boolean;
};

export type HealthAnswer =
  | { status: 'ok' | 'failing'; checkedAt: string; jobs: JobHealthAnswer[]; openAlerts: number }
  | { status: 'unreachable'; checkedAt: string };

/**
 * GET /.netlify/functions/health, for an outside uptime monitor (decision 0096): the watchdog
 * lives in the database and is woken by the hourly job and the admin portal, so if every
 * scheduled function stops nobody would be told. This wakes it (it opens, emails once and clears
 * alerts as it always does), then answers each job's latest run and success:
 * 200 `ok` when no job is overdue or failing, 503 `failing` when one is, 503 `unreachable` when
 * the database cannot be asked. A monitor that gets no answer at all (the functions are down)
 * alerts too. No summaries or alert texts: the URL is public.
 */
export default async function health(req: Request): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed('GET');
  const now = new Date();
  const checkedAt = now.toISOString();
  try {
    const db = serviceDb(readServerEnv());
    const openAlerts = await checkSystemHealth(db, now);
    const { data, error } = await db.rpc('job_health', { p_now: checkedAt });
    if (error) throw new Error(`job_health failed: ${error.message}`);
    const jobs = compositeRows<'job_health', 'job' | 'overdue'>(data).map((j) => ({
      job: j.job,
      lastStartedAt: j.last_started_at,
      lastOutcome: j.last_outcome,
      lastSucceededAt: j.last_succeeded_at,
      overdue: j.overdue,
    }));
    const failing = jobs.some((j) => j.overdue);
    return json({ status: failing ? 'failing' : 'ok', checkedAt, jobs, openAlerts } satisfies HealthAnswer, failing ? 503 : 200);
  } catch (error) {
    console.error('[health] could not check', error);
    return json({ status: 'unreachable', checkedAt } satisfies HealthAnswer, 503);
  }
}
