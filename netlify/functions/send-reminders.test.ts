import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeSupabase, rpcError, SERVICE_KEY, SUPABASE_URL } from '../tests/fake-supabase';
import sendReminders, { config, REMINDER_WINDOW_HOURS } from './send-reminders';

// The SQL behind enqueue_class_reminders (window, idempotence, holds skipped) is tested against the
// engine in supabase/tests/studio-ops/notifications.test.ts; this checks the function's own job.
const fake = new FakeSupabase();
const server = setupServer(...fake.handlers());

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  fake.rpcCalls.length = 0;
  vi.unstubAllEnvs();
});
afterAll(() => server.close());

function stubEnv() {
  vi.stubEnv('SUPABASE_URL', SUPABASE_URL);
  vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', SERVICE_KEY);
  vi.stubEnv('SITE_URL', 'https://studio.example');
}

describe('send-reminders', () => {
  it('is scheduled hourly', () => {
    expect(config).toEqual({ schedule: '@hourly' });
  });

  it('asks the database, as the service role, to queue reminders for the next 24 hours', async () => {
    stubEnv();
    fake.answerRpc('enqueue_class_reminders', 3);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const res = await sendReminders();
    log.mockRestore();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ queued: 3, windowHours: 24 });
    expect(fake.calls('enqueue_class_reminders')).toEqual([
      { fn: 'enqueue_class_reminders', args: { p_within_hours: REMINDER_WINDOW_HOURS }, authorization: `Bearer ${SERVICE_KEY}` },
    ]);
  });

  it('reports a failure as a 500 without details, and a missing configuration as a 503', async () => {
    stubEnv();
    fake.answerRpc('enqueue_class_reminders', rpcError('invalid_window', 'The reminder window must be 1 to 168 hours', '22023'), 400);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = await sendReminders();
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'reminders_failed', message: 'Could not queue the class reminders.' });

    vi.stubEnv('SUPABASE_URL', '');
    expect((await sendReminders()).status).toBe(503);
    error.mockRestore();
  });
});
