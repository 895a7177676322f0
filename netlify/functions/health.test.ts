import { describe, expect, it, vi } from 'vitest';
import { rpcError, setUpFakeSupabase } from '../tests/fake-supabase';
import health from './health';

// The outside check (decision 0096): the SQL it reads (job_health, the watchdog) is tested against
// the engine in supabase/tests/system-health.test.ts; this checks what the endpoint answers.
const { fake, stubEnv } = setUpFakeSupabase();

const HOURLY = {
  job: 'hourly',
  last_started_at: '2031-03-03T09:00:00+00:00',
  last_outcome: 'succeeded',
  last_succeeded_at: '2031-03-03T09:00:00+00:00',
};
const EMAILS = {
  job: 'emails',
  last_started_at: '2031-03-03T10:59:00+00:00',
  last_outcome: 'succeeded',
  last_succeeded_at: '2031-03-03T10:59:00+00:00',
};
const PUSHES = { job: 'pushes', last_started_at: null, last_outcome: null, last_succeeded_at: null, overdue: false };

const get = () => health(new Request('https://studio.example/.netlify/functions/health'));

describe('health', () => {
  it('wakes the watchdog and answers 200 with each job when none is overdue', async () => {
    stubEnv();
    fake.answerRpc('check_system_health', 0);
    fake.answerRpc('job_health', [{ ...HOURLY, overdue: false }, { ...EMAILS, overdue: false }, PUSHES]);
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 'ok',
      openAlerts: 0,
      jobs: [
        { job: 'hourly', lastOutcome: 'succeeded', lastSucceededAt: HOURLY.last_succeeded_at, overdue: false },
        { job: 'emails', overdue: false },
        { job: 'pushes', lastStartedAt: null, overdue: false },
      ],
    });
    // The watchdog first (so a monitor's call alone opens and emails the alert), both as of one time.
    expect(fake.rpcCalls.map((c) => c.fn)).toEqual(['check_system_health', 'job_health']);
    expect(fake.calls('job_health')[0]!.args.p_now).toBe(fake.calls('check_system_health')[0]!.args.p_now);
    expect(fake.calls('job_health')[0]!.authorization).toBe('Bearer service-role-key-for-tests');
  });

  it('answers 503 failing when a job is overdue, without the alert texts', async () => {
    stubEnv();
    fake.answerRpc('check_system_health', 1);
    fake.answerRpc('job_health', [{ ...HOURLY, overdue: true }, { ...EMAILS, overdue: false }, PUSHES]);
    const res = await get();
    expect(res.status).toBe(503);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'failing', openAlerts: 1 });
    expect(JSON.stringify(body)).not.toMatch(/message|summary/);
  });

  it('answers 503 unreachable when the database cannot be asked, or is not configured', async () => {
    stubEnv();
    fake.answerRpc('check_system_health', rpcError('', 'connection refused', '08006'), 500);
    const res = await get();
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unreachable' });

    vi.unstubAllEnvs();
    vi.stubEnv('SUPABASE_URL', '');
    const unconfigured = await get(); // readServerEnv throws: nothing is asked
    expect(unconfigured.status).toBe(503);
    expect(fake.rpcCalls).toHaveLength(1);
  });

  it('takes GET only', async () => {
    const res = await health(new Request('https://studio.example/.netlify/functions/health', { method: 'POST' }));
    expect(res.status).toBe(405);
  });
});
