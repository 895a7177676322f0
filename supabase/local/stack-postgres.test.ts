import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPostgresBinDir, pg, startThrowawayCluster, type ThrowawayCluster } from '../tests/support/real-postgres';
import { JwtKeys } from './jwt';
import { startStack, type Stack } from './stack';

// DATABASE_URL mode: the same stack against a real PostgreSQL server (skipped where none is installed).
const binDir = findPostgresBinDir();
let cluster: ThrowawayCluster;
let stack: Stack;

function client() {
  return createClient(stack.url, stack.anonKey, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

describe.skipIf(!binDir)('local stack on a real PostgreSQL (DATABASE_URL)', () => {
  beforeAll(async () => {
    cluster = await startThrowawayCluster(binDir!);
    stack = await startStack({ port: 0, dataDir: 'memory', databaseUrl: cluster.connectionString, quiet: true });
  });

  afterAll(async () => {
    await stack?.stop();
    cluster?.stop();
  });

  it('seeds, signs in, books through PostgREST, delivers the realtime change and the confirmation email', async () => {
    expect(stack.created).toBe(true);
    const c = client();
    expect((await c.auth.signInWithPassword({ email: 'standard@studio.test', password: 'studio123' })).error).toBeNull();
    const { data: target } = await c
      .from('classes')
      .select('id, spots_left')
      .gt('start_time', new Date(Date.now() + 864e5).toISOString())
      .eq('is_premium', false)
      .gt('spots_left', 3)
      .order('start_time')
      .limit(1)
      .single();
    const changes: Array<Record<string, unknown>> = [];
    await new Promise<void>((resolve, reject) =>
      c
        .channel('pg-spots')
        .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'classes', filter: `id=eq.${target!.id}` }, (p) =>
          changes.push(p.new),
        )
        .subscribe((status: string) => (status === 'SUBSCRIBED' ? resolve() : status === 'CHANNEL_ERROR' && reject(new Error(status)))),
    );
    const booked = await c.rpc('book_class', { p_class_id: target!.id });
    expect(booked.error).toBeNull();
    await expect.poll(() => changes.length, { timeout: 5000 }).toBe(1);
    expect(changes[0]).toMatchObject({ spots_left: target!.spots_left - 1 });
    // The outbox row the booking queued reaches the inbox through the LISTEN connection.
    await expect
      .poll(() => stack.inbox.list().find((e) => e.to === 'standard@studio.test')?.subject, { timeout: 5000 })
      .toMatch(/^Booking confirmed: /);
    await c.removeAllChannels();
  });

  it("applies hosted's API role settings through PostgREST: anon 3 s, authenticated 8 s statement timeouts", async () => {
    // A probe function added after start (PostgREST reloads its schema cache on NOTIFY here).
    const admin = new pg.Client({ connectionString: cluster.connectionString });
    await admin.connect();
    try {
      await admin.query(`create function public.timeout_probe(p_sleep float8 default 0) returns text language sql as
        $$ select pg_catalog.pg_sleep(p_sleep)::text || pg_catalog.current_setting('statement_timeout') $$;
        grant execute on function public.timeout_probe(float8) to anon, authenticated;
        notify pgrst, 'reload schema';`);
    } finally {
      await admin.end();
    }
    const anon = client();
    await expect.poll(async () => (await anon.rpc('timeout_probe')).data, { timeout: 5000 }).toBe('3s');
    const member = client();
    await member.auth.signInWithPassword({ email: 'standard@studio.test', password: 'studio123' });
    expect((await member.rpc('timeout_probe')).data).toBe('8s');
    const slow = await anon.rpc('timeout_probe', { p_sleep: 3.5 });
    expect(slow.error?.code).toBe('57014');
    expect(slow.error?.message).toMatch(/statement timeout/);
  });

  it('PostgREST logs in as authenticator: a token claiming a platform role gets nothing', async () => {
    const forged = await new JwtKeys(stack.jwtSecret).sign({ role: 'supabase_admin' }, 60);
    const res = await fetch(`${stack.url}/rest/v1/members?select=id`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${forged}` },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/permission denied to set role "supabase_admin"/);
  });
});
