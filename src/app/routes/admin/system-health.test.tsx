import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { REST_URL } from '@/testing/supabase-mocks';
import { signInAsAdmin } from '@/testing/admin-fixtures';

const run = (id: number, job: string, started: string, outcome: string, summary: string) => ({
  id,
  job,
  started_at: started,
  finished_at: outcome === 'running' ? null : started,
  outcome,
  summary,
});

const RUNS = [
  run(3, 'hourly', '2031-03-03T09:00:00+00:00', 'failed', 'claim_due_renewals failed: timeout'),
  run(2, 'hourly', '2031-03-03T08:00:00+00:00', 'failed', 'claim_due_renewals failed: timeout'),
  run(1, 'emails', '2031-03-03T09:01:00+00:00', 'succeeded', 'sent 3, retrying 0, failed 0'),
];

const ALERTS = [
  {
    id: 7,
    cause: 'failing:hourly',
    message: 'The hourly jobs failed twice running',
    opened_at: '2031-03-03T09:00:00+00:00',
    cleared_at: null,
  },
  {
    id: 5,
    cause: 'missed:emails',
    message: 'Emails are queued',
    opened_at: '2031-03-01T09:00:00+00:00',
    cleared_at: '2031-03-01T10:00:00+00:00',
  },
];

describe('Admin > System health', () => {
  it('runs the watchdog, then shows the open alerts in red and each job’s latest runs', async () => {
    const { handlers } = signInAsAdmin();
    let checks = 0;
    server.use(
      http.post(`${REST_URL}/rpc/admin_check_system_health`, () => {
        checks += 1;
        return HttpResponse.json(1);
      }),
      ...handlers,
      http.get(`${REST_URL}/job_runs`, ({ request }) => {
        const job = new URL(request.url).searchParams.get('job');
        return HttpResponse.json(RUNS.filter((r) => `eq.${r.job}` === job));
      }),
      http.get(`${REST_URL}/system_alerts`, () => HttpResponse.json(ALERTS)),
    );
    renderApp('/admin/system-health');
    expect(await screen.findByRole('heading', { name: 'System health' })).toBeInTheDocument();
    const open = await screen.findByRole('list', { name: 'Open alerts' });
    expect(within(open).getByText(/The hourly jobs failed twice running/)).toBeInTheDocument();
    expect(within(open).getAllByRole('listitem')).toHaveLength(1);
    const hourly = screen.getByRole('list', { name: 'Hourly jobs (renewals, reminders, no-shows): latest runs' });
    expect(within(hourly).getAllByText('Failed')).toHaveLength(2);
    expect(within(hourly).getAllByText('claim_due_renewals failed: timeout')).toHaveLength(2);
    const emails = screen.getByRole('list', { name: 'Email delivery: latest runs' });
    expect(within(emails).getByText('sent 3, retrying 0, failed 0')).toBeInTheDocument();
    expect(screen.getByText('No run recorded yet.')).toBeInTheDocument();
    expect(screen.getByText(/Cleared alerts/)).toBeInTheDocument();
    // Once when the portal opened, once for the screen.
    expect(checks).toBe(2);
    expect(screen.getByRole('link', { name: 'System health' })).toHaveAttribute('aria-current', 'page');
  });
});
