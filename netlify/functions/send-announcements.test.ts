import { afterEach, describe, expect, it, vi } from 'vitest';
import { rpcError, SERVICE_KEY, setUpFakeSupabase } from '../tests/fake-supabase';
import sendAnnouncementsNow, { config } from './send-announcements';

// The SQL (who is in a segment, once per announcement, the throttle) is tested against the engine
// (supabase/tests/announcements.test.ts); this checks the scheduled function's own part.
const { fake, stubEnv } = setUpFakeSupabase();
afterEach(() => {
  vi.useRealTimers();
});

describe('send-announcements', () => {
  it('runs every minute and queues what is due as of now, as the service role', async () => {
    expect(config).toEqual({ schedule: '* * * * *' });
    stubEnv();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-02-15T10:01:00Z'));
    fake.answerRpc('send_announcements_at', 3);
    const res = await sendAnnouncementsNow();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ job: 'announcements', did: 'queued for 3 members', details: [] });
    expect(fake.calls('send_announcements_at')).toEqual([
      expect.objectContaining({ args: { p_now: '2027-02-15T10:01:00.000Z' }, authorization: `Bearer ${SERVICE_KEY}` }),
    ]);
  });

  it('answers a failure with a 500 without details, and a missing configuration with a 503', async () => {
    stubEnv();
    fake.answerRpc('send_announcements_at', rpcError('boom', 'internal', 'XX000'), 500);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = await sendAnnouncementsNow();
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'announcements_failed', message: 'Could not send the announcements that are due.' });
    vi.stubEnv('SUPABASE_URL', '');
    expect((await sendAnnouncementsNow()).status).toBe(503);
    error.mockRestore();
  });
});
