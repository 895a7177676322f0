import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { useErrorToast } from '@/hooks/use-error-toast';
import { formatInLondon } from '@/lib/studio-calendar';
import { HEALTH_JOBS, useSystemHealth, type JobRun } from '../api/system-health';
import { ADMIN_MESSAGES } from '../lib/messages';
import { EmptyState } from './empty-state';
import { PageHeading } from './page-heading';
import { PanelSection } from './panel-section';

const WHEN = 'd MMM yyyy, HH:mm';

const OUTCOME_WORDS: Record<string, string> = { running: 'Running', succeeded: 'Succeeded', failed: 'Failed' };

function RunLine({ run }: { run: JobRun }) {
  return (
    <li className="flex flex-wrap gap-x-3 border-b border-slate-100 py-2 text-sm last:border-0">
      <span className="font-medium text-slate-900">{formatInLondon(run.started_at, WHEN)}</span>
      <span className={run.outcome === 'failed' ? 'font-semibold text-red-700' : 'text-slate-600'}>{OUTCOME_WORDS[run.outcome]}</span>
      {run.summary && <span className="min-w-0 break-words text-slate-600">{run.summary}</span>}
    </li>
  );
}

/** Admin > System health (decision 0046): the open alerts (a red line each) and each job's latest runs. */
export function SystemHealthPanel() {
  const health = useSystemHealth();
  useErrorToast(health.isError, ADMIN_MESSAGES.healthLoadFailed);
  const open = health.data?.alerts.filter((a) => !a.cleared_at) ?? [];
  const cleared = health.data?.alerts.filter((a) => a.cleared_at) ?? [];

  return (
    <section>
      <PageHeading title="System health" subtitle="Whether the scheduled jobs run, and anything the studio was alerted about." />
      {health.isPending && <Spinner label="Loading system health" />}
      {health.isError && <EmptyState title={ADMIN_MESSAGES.healthLoadFailed} body="Refresh the page to try again." />}
      {health.data && (
        <div>
          <PanelSection id="health-alerts" title="Alerts">
            <div className="p-4">
              {open.length === 0 ? (
                <p className="flex items-center gap-2 text-sm text-emerald-700">
                  <CheckCircle2 aria-hidden="true" className="h-5 w-5" /> No open alerts.
                </p>
              ) : (
                <ul aria-label="Open alerts" className="space-y-2">
                  {open.map((a) => (
                    <li key={a.id} className="flex gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800">
                      <AlertTriangle aria-hidden="true" className="h-5 w-5 shrink-0" />
                      <span>
                        {a.message} <span className="font-normal">(since {formatInLondon(a.opened_at, WHEN)})</span>
                      </span>
                    </li>
                  ))}
                </ul>
              )}
              {cleared.length > 0 && (
                <details className="mt-4 text-sm text-slate-600">
                  <summary className="cursor-pointer">Cleared alerts</summary>
                  <ul className="mt-2 space-y-1">
                    {cleared.map((a) => (
                      <li key={a.id}>
                        {formatInLondon(a.opened_at, WHEN)} to {formatInLondon(a.cleared_at!, WHEN)}: {a.message}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </div>
          </PanelSection>
          {HEALTH_JOBS.map(({ job, label, every }) => (
            <PanelSection key={job} id={`health-${job}`} title={label} intro={`Runs ${every}. Latest runs (London time):`}>
              <div className="px-4 py-2">
                {health.data.runs[job].length === 0 ? (
                  <p className="text-sm text-slate-600">No run recorded yet.</p>
                ) : (
                  <ul aria-label={`${label}: latest runs`}>
                    {health.data.runs[job].map((run) => (
                      <RunLine key={run.id} run={run} />
                    ))}
                  </ul>
                )}
              </div>
            </PanelSection>
          ))}
        </div>
      )}
    </section>
  );
}
