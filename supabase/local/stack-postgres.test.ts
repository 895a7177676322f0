import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPostgresBinDir, startThrowawayCluster, type ThrowawayCluster } from '../tests/support/real-postgres';
import { startStack, type Stack } from './stack';

// DATABASE_URL mode: the same stack against a real PostgreSQL server (skipped where none is installed).
const binDir = findPostgresBinDir();

describe.skipIf(!binDir)('local stack on a real PostgreSQL (DATABASE_URL)', () => {
  let cluster: ThrowawayCluster;
  let stack: Stack;

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
    const c = createClient(stack.url, stack.anonKey, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false },
    });
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
});
