import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Tables } from '@/lib/supabase';

/** The recorded scheduled jobs (job_runs_job_check, 26_health.sql) and how the screen names them. */
export const HEALTH_JOBS = [
  { job: 'hourly', label: 'Hourly jobs (renewals, reminders, no-shows)', every: 'every hour' },
  { job: 'emails', label: 'Email delivery', every: 'every minute' },
  { job: 'pushes', label: 'Phone notifications', every: 'every minute' },
] as const;

/** How many of each job's latest runs the screen shows. */
export const RUNS_SHOWN = 5;

export type JobRun = Tables<'job_runs'>;
export type SystemAlert = Tables<'system_alerts'>;

export type SystemHealth = {
  runs: Record<(typeof HEALTH_JOBS)[number]['job'], JobRun[]>;
  /** Open alerts first, then the latest cleared ones. */
  alerts: SystemAlert[];
};

/** The watchdog, as an admin opening the portal runs it (decision 0046); returns the open alerts' count. */
export async function runHealthCheck(): Promise<number> {
  const { data, error } = await supabase.rpc('admin_check_system_health');
  if (error) throw error;
  return data;
}

async function latestRuns(job: string): Promise<JobRun[]> {
  const { data, error } = await supabase
    .from('job_runs')
    .select('*')
    .eq('job', job)
    .order('started_at', { ascending: false })
    .limit(RUNS_SHOWN);
  if (error) throw error;
  return data;
}

/** The watchdog first (so what is shown is current), then each job's latest runs and the alerts. */
export async function getSystemHealth(): Promise<SystemHealth> {
  await runHealthCheck();
  const [hourly, emails, pushes, alerts] = await Promise.all([
    latestRuns('hourly'),
    latestRuns('emails'),
    latestRuns('pushes'),
    supabase
      .from('system_alerts')
      .select('*')
      .order('cleared_at', { ascending: false, nullsFirst: true })
      .order('opened_at', { ascending: false })
      .limit(20),
  ]);
  if (alerts.error) throw alerts.error;
  return { runs: { hourly, emails, pushes }, alerts: alerts.data };
}

export const systemHealthQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.systemHealth(), queryFn: getSystemHealth });

export const useSystemHealth = () => useQuery(systemHealthQueryOptions());

/** Runs the watchdog once when an admin opens the portal; its result is not shown there. */
export const useHealthCheckOnOpen = () =>
  useQuery({ queryKey: [...queryKeys.admin.systemHealth(), 'on-open'], queryFn: runHealthCheck, staleTime: Infinity, retry: false });
