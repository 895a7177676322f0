import { afterEach, describe, expect, it, vi } from 'vitest';
import { rpcError, SERVICE_KEY, setUpFakeSupabase } from '../tests/fake-supabase';
import runJobs, { config } from './run-jobs';

// The SQL behind each job is tested against the engine (supabase/tests/memberships.test.ts,
// supabase/tests/studio-ops/notifications.test.ts) and the whole run against the local stack
// (netlify/tests/local-checkout-flow.test.ts); this checks the scheduled function's own part.
const { fake, stubEnv: stubSupabaseEnv } = setUpFakeSupabase();
afterEach(() => {
  vi.useRealTimers();
});

/** Deployed: Supabase and a SumUp key (the renewals' provider; nothing is charged here). */
function stubEnv() {
  stubSupabaseEnv();
  vi.stubEnv('SUMUP_API_KEY', 'sup_sk_test');
  vi.stubEnv('SUMUP_MERCHANT_CODE', 'MTEST');
  // No VAPID keys: the pushes job says so (deliver-pushes.test.ts sends with keys).
  vi.stubEnv('VAPID_PUBLIC_KEY', '');
  vi.stubEnv('VAPID_PRIVATE_KEY', '');
}

const JOB_RPCS = [
  'release_expired_holds_at',
  'expire_trials',
  'end_finished_memberships',
  'claim_due_renewals',
  'enqueue_membership_reminders',
  'enqueue_credit_expiry_reminders',
  'enqueue_win_back_emails',
  'mark_no_shows',
  'generate_one_to_one_slots',
  'enqueue_class_reminders_at',
  'enqueue_push_reminders_at',
  'send_class_changes_at',
  'send_review_requests_at',
  'send_announcements_at',
  'send_gift_vouchers_at',
  'purge_job_runs',
  'apply_data_retention',
];

describe('run-jobs', () => {
  it('is scheduled hourly', () => {
    expect(config).toEqual({ schedule: '@hourly' });
  });

  it('runs every job once as the service role, all as of the same now, and reports what each did', async () => {
    stubEnv();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-02-15T10:00:00Z'));
    for (const fn of JOB_RPCS) fake.answerRpc(fn, fn === 'claim_due_renewals' ? [] : 2);
    fake.answerRpc('apply_data_retention', { guest_signatures: 1, contact_messages: 2, audit_events: 0 });
    fake.answerRpc('start_job_run', 41);
    fake.answerRpc('check_system_health', 1);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const res = await runJobs();
    log.mockRestore();
    expect(res.status).toBe(200);
    // The run is recorded around the jobs (decision 0046), then the watchdog judges it.
    expect(fake.rpcCalls.map((c) => c.fn)).toEqual(['start_job_run', ...JOB_RPCS, 'finish_job_run', 'check_system_health']);
    expect(fake.rpcCalls.every((c) => c.args.p_now === '2027-02-15T10:00:00.000Z' && c.authorization === `Bearer ${SERVICE_KEY}`)).toBe(
      true,
    );
    expect(fake.calls('start_job_run')[0]!.args).toEqual({ p_job: 'hourly', p_now: '2027-02-15T10:00:00.000Z' });
    expect(fake.calls('finish_job_run')[0]!.args).toMatchObject({ p_id: 41, p_succeeded: true });
    expect(fake.calls('finish_job_run')[0]!.args.p_summary).toContain('trials: ended 2 free trials');
    expect(fake.calls('enqueue_class_reminders_at')[0]!.args).toEqual({ p_now: '2027-02-15T10:00:00.000Z', p_within_hours: 24 });
    const { reports } = (await res.json()) as { reports: { job: string; did: string }[] };
    expect(reports.map((r) => `${r.job}: ${r.did}`)).toEqual([
      'payment holds: released 2 expired holds',
      'trials: ended 2 free trials',
      'cancelled memberships: ended 2 memberships at their period end',
      'renewals: nothing due',
      'reminders: queued 2 renewal or trial reminders',
      'credits: queued 2 expiry reminders for credits ending within 7 days',
      'come-back emails: queued 2 come-back emails after ended trials and memberships',
      'no-shows: marked 2 bookings not checked in 30 minutes after the start',
      "personal training: created 2 One-to-One sessions from trainers' availability",
      'class reminders: queued 2 reminders for classes in the next 24 hours',
      'push reminders: queued 2 push reminders before early classes',
      'class changes: told 2 members of changed classes',
      'review requests: queued 2 review requests',
      'announcements: queued for 2 members',
      'gift vouchers: emailed 2 gift vouchers due today',
      'pushes: not sent: no VAPID keys set',
      'texts: not sent: no Twilio keys set',
      'housekeeping: removed 2 job runs older than 30 days',
      'retention: removed 1 guest signature, 2 contact messages, 0 audit events past their period',
      'system health: 1 alert open',
    ]);
  });

  it('reports a failure as a 500 without details, and a missing configuration as a 503', async () => {
    stubEnv();
    fake.answerRpc('release_expired_holds_at', rpcError('boom', 'internal', 'XX000'), 500);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = await runJobs();
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'jobs_failed', message: 'The scheduled jobs failed.' });
    // The failed run is recorded as failed, and the watchdog still runs.
    expect(fake.calls('finish_job_run').at(-1)!.args).toMatchObject({
      p_succeeded: false,
      p_summary: 'release_expired_holds_at failed: internal',
    });
    expect(fake.rpcCalls.at(-1)!.fn).toBe('check_system_health');

    vi.stubEnv('SUPABASE_URL', '');
    expect((await runJobs()).status).toBe(503);
    error.mockRestore();
  });
});
