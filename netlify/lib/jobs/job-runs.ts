import type { Db } from '../supabase-server';

/** The scheduled jobs whose runs are recorded (job_runs_job_check, 26_health.sql). */
export type RecordedJob = 'hourly' | 'emails' | 'pushes';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs `work` as one recorded run of `job` (decision 0046): its start as of `now`, then its end,
 * outcome and what it did (`summarise` of the result, or the error's message). The error is
 * rethrown: the caller reports it as before. A run that cannot be recorded does not start.
 */
export async function recordRun<T>(
  db: Db,
  job: RecordedJob,
  now: Date,
  work: () => Promise<T>,
  summarise: (result: T) => string,
): Promise<T> {
  // The end is `now` plus the time the run took (a run as of a chosen time ends in that time too).
  const startedAt = Date.now();
  const { data: id, error } = await db.rpc('start_job_run', { p_job: job, p_now: now.toISOString() });
  if (error) throw new Error(`start_job_run failed: ${error.message}`);
  const finish = async (succeeded: boolean, summary: string) => {
    const end = new Date(now.getTime() + Math.max(0, Date.now() - startedAt));
    const { error: finishError } = await db.rpc('finish_job_run', {
      p_id: id,
      p_now: end.toISOString(),
      p_succeeded: succeeded,
      p_summary: summary,
    });
    if (finishError) console.error(`[job-runs] could not record the end of ${job} run ${id}: ${finishError.message}`);
  };
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await finish(false, message(error));
    throw error;
  }
  await finish(true, summarise(result));
  return result;
}

/** The watchdog as of `now` (decision 0046): opens and clears alerts; returns how many are open. */
export async function checkSystemHealth(db: Db, now: Date): Promise<number> {
  const { data, error } = await db.rpc('check_system_health', { p_now: now.toISOString() });
  if (error) throw new Error(`check_system_health failed: ${error.message}`);
  return data;
}
