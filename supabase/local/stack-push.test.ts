import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import webpush from 'web-push';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPushEnv } from '../../netlify/lib/push/push-env';
import { startStack, type Stack } from './stack';

// Pushes through the whole local stack (decision 0023): a member saves a browser-less
// subscription of the local push service, another member's cancellation promotes them from the
// waitlist, and the stack's sender delivers the push there, where it is decrypted and listed.
const PASSWORD = 'studio123';
let stack: Stack;

async function signedIn(email: string): Promise<SupabaseClient> {
  const c = createClient(stack.url, stack.anonKey, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { error } = await c.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return c;
}

beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', quiet: true });
});

afterAll(async () => {
  await stack?.stop();
});

describe('the local push service', () => {
  it('receives, decrypts and lists the push of a waitlist promotion; a device it forgot is removed', async () => {
    const res = await fetch(`${stack.url}/push/v1/subscriptions`, { method: 'POST' });
    expect(res.status).toBe(201);
    const device = (await res.json()) as { id: string; endpoint: string; keys: { p256dh: string; auth: string } };
    expect(device.endpoint).toBe(`${stack.url}/push/v1/send/${device.id}`);

    const standard = await signedIn('standard@studio.test');
    const saved = await standard.rpc('save_push_subscription', {
      p_endpoint: device.endpoint,
      p_p256dh: device.keys.p256dh,
      p_auth: device.keys.auth,
      p_device: 'Test client',
    });
    expect(saved.error).toBeNull();

    const admin = await signedIn('admin@studio.test');
    const start = new Date(Date.now() + 3 * 864e5);
    start.setUTCMinutes(0, 0, 0);
    const { data: cls, error } = await admin
      .from('classes')
      .insert({ name: 'Push Spin', start_time: start.toISOString(), trainer: 'Coach Jess', capacity: 1 })
      .select('id')
      .single();
    if (error) throw error;
    const premium = await signedIn('premium@studio.test');
    const booked = await premium.rpc('book_class', { p_class_id: cls.id });
    expect(booked.error).toBeNull();
    expect((await standard.rpc('join_waitlist', { p_class_id: cls.id })).error).toBeNull();
    expect((await premium.rpc('cancel_booking', { p_booking_id: booked.data!.booking_id! })).error).toBeNull();

    await expect.poll(() => stack.pushes.list().length, { timeout: 5000 }).toBe(1);
    const [push] = stack.pushes.list();
    expect(push!.subscriptionId).toBe(device.id);
    expect(JSON.parse(push!.payload)).toMatchObject({
      title: 'A spot opened: you are booked',
      path: '/mybookings',
      kind: 'waitlist_promoted',
      tag: `class:${cls.id}`,
    });
    const page = await (await fetch(`${stack.url}/push`)).text();
    expect(page).toContain('A spot opened: you are booked');
    expect(await (await fetch(`${stack.url}/push.json`)).json()).toHaveLength(1);

    // The browser is gone: the next push gets 410 and the device leaves the member's list.
    stack.pushes.unsubscribe(device.id);
    await admin
      .from('classes')
      .update({ start_time: new Date(start.getTime() + 3600_000).toISOString() })
      .eq('id', cls.id);
    await expect.poll(async () => (await standard.from('push_subscriptions').select('id')).data?.length, { timeout: 5000 }).toBe(0);
  });

  it('serves the VAPID public key to the app, and hands its pair to a process beside it', async () => {
    const res = await fetch(`${stack.url}/.netlify/functions/push-key`, { method: 'POST' });
    expect(await res.json()).toEqual({ publicKey: stack.vapidPublicKey });
    expect(stack.functionsEnv).toMatchObject({ SUPABASE_URL: stack.url, VAPID_PUBLIC_KEY: stack.vapidPublicKey });
    expect(stack.functionsEnv.VAPID_PRIVATE_KEY).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('makes a subscription for the VAPID key a browser gives, else for its own', async () => {
    type Subscription = { id: string; endpoint: string; keys: { p256dh: string; auth: string } };
    const other = webpush.generateVAPIDKeys();
    const subscribe = async (body?: string) => {
      const res = await fetch(`${stack.url}/push/v1/subscriptions`, { method: 'POST', body });
      return { status: res.status, subscription: (await res.json()) as Subscription };
    };
    const forOther = (await subscribe(JSON.stringify({ applicationServerKey: other.publicKey }))).subscription;
    const forStack = (await subscribe()).subscription;
    expect((await subscribe('{"applicationServerKey":"nope"}')).status).toBe(400);

    // Signed with the stack's pair (as its functions and `npm run jobs` with its functionsEnv sign):
    // the device subscribed for another key refuses it with 403, as a vendor's push service does.
    const send = async (to: Subscription) => {
      const details = webpush.generateRequestDetails(to, 'hello', {
        vapidDetails: readPushEnv(stack.functionsEnv),
        contentEncoding: 'aes128gcm',
      });
      const headers = Object.fromEntries(Object.entries(details.headers).filter(([name]) => name.toLowerCase() !== 'content-length'));
      const res = await fetch(details.endpoint, {
        method: 'POST',
        headers: headers as Record<string, string>,
        body: new Uint8Array(details.body),
      });
      return res.status;
    };
    expect(await send(forOther)).toBe(403);
    expect(await send(forStack)).toBe(201);
  });
});
