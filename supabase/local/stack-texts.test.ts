import { PostgrestClient } from '@supabase/postgrest-js';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScheduledJobs } from '../../netlify/lib/jobs/scheduled-jobs';
import { selectProvider } from '../../netlify/lib/payments/select-provider';
import { readServerEnv } from '../../netlify/lib/server-env';
import type { Database } from '../../src/lib/database.types';
import { startStack, type Stack } from './stack';

// Texts through the whole local stack (decision 0041): a member with texts on and a booked class
// gets the reminder by email in the inbox and by text at /sms, each once, when the jobs run; a
// second run sends nothing.
const PASSWORD = 'studio123';
let stack: Stack;

async function signedIn(email: string): Promise<SupabaseClient<Database>> {
  const c = createClient<Database>(stack.url, stack.anonKey, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { error } = await c.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return c;
}

async function until<T>(what: string, read: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', quiet: true });
});

afterAll(async () => {
  await stack?.stop();
});

describe('texts on the local stack', () => {
  it('reminds a member by email and by text at /sms for the same class, each once, however often the jobs run', async () => {
    const member = await signedIn('premium@studio.test');
    expect((await member.rpc('set_sms_number', { p_phone: '07700 900123' })).error).toBeNull();
    expect((await member.rpc('set_notification_preference', { p_channel: 'sms', p_topic: 'service', p_enabled: true })).error).toBeNull();

    // Tomorrow 15:00 UTC, and the jobs at 10:00 UTC: daytime in London, outside the texts' quiet hours.
    const start = new Date(Date.now() + 864e5);
    start.setUTCHours(15, 0, 0, 0);
    const at = new Date(start.getTime() - 5 * 3_600_000);
    const admin = await signedIn('admin@studio.test');
    const { data: cls, error } = await admin
      .from('classes')
      .insert({ name: 'Text Spin', start_time: start.toISOString(), trainer: 'Coach Jess', capacity: 5 })
      .select('id')
      .single();
    if (error) throw error;
    expect((await member.rpc('book_class', { p_class_id: cls.id })).error).toBeNull();

    const env = readServerEnv(stack.functionsEnv);
    const db = new PostgrestClient<Database>(`${stack.url}/rest/v1`, {
      headers: { apikey: env.serviceRoleKey, Authorization: `Bearer ${env.serviceRoleKey}` },
    });
    await runScheduledJobs(db, selectProvider(env), at);

    const text = await until('the text', () => stack.texts.list().find((t) => t.body.includes('Text Spin')));
    expect(text).toMatchObject({ to: '+447700900123', from: stack.functionsEnv.TWILIO_FROM });
    expect(text.body).toMatch(/^Reminder: Text Spin with Coach Jess, .+\nReply STOP to opt out$/);
    await until('the email', () => stack.inbox.list().find((e) => e.subject.startsWith('Reminder: Text Spin')));
    const page = await (await fetch(`${stack.url}/sms`)).text();
    expect(page).toContain('To +447700900123');

    await runScheduledJobs(db, selectProvider(env), at);
    await new Promise((r) => setTimeout(r, 1500));
    expect(stack.texts.list().filter((t) => t.body.includes('Text Spin'))).toHaveLength(1);
    expect(stack.inbox.list().filter((e) => e.subject.startsWith('Reminder: Text Spin'))).toHaveLength(1);
  }, 60_000);
});
