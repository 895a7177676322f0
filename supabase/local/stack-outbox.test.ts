import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack';

// The notifications outbox delivered into the stack's inbox, driven by supabase-js as the app does.
const SITE = 'http://127.0.0.1:5173';
const PASSWORD = 'studio123';
const ADDRESS = 'Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom';
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

/** 'Monday 6 October 2025, 6:00 AM' in London, as the emails print a class's start. */
function londonText(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'Europe/London',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute} ${parts.dayPeriod}`;
}

async function emailTo(to: string, subjectStart: string) {
  await expect
    .poll(() => stack.inbox.list().find((e) => e.to === to && e.subject.startsWith(subjectStart)), { timeout: 5000 })
    .toBeDefined();
  return stack.inbox.list().find((e) => e.to === to && e.subject.startsWith(subjectStart))!;
}

/** A new class (3 days ahead, so no cut-off or late window applies) with `capacity` spots. */
async function newClass(name: string, capacity: number) {
  const admin = await signedIn('admin@studio.test');
  const start = new Date(Date.now() + 3 * 864e5);
  start.setUTCMinutes(0, 0, 0);
  const { data, error } = await admin
    .from('classes')
    .insert({ name, start_time: start.toISOString(), trainer: 'Coach Jess', capacity })
    .select('id, start_time')
    .single();
  if (error) throw error;
  return data;
}

beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', quiet: true, siteUrl: SITE });
});

afterAll(async () => {
  await stack?.stop();
});

describe('notifications outbox delivery', () => {
  it("emails a member's booking confirmation with the class, London time, address and a cancel link", async () => {
    const cls = await newClass('Outbox Yoga <Flow> & Core', 5);
    const member = await signedIn('standard@studio.test');
    const booked = await member.rpc('book_class', { p_class_id: cls.id });
    expect(booked.error).toBeNull();

    const when = londonText(cls.start_time);
    const email = await emailTo('standard@studio.test', 'Booking confirmed: ');
    expect(email.subject).toBe(`Booking confirmed: Outbox Yoga <Flow> & Core, ${when}`);
    // Delivered by SMTP with both parts: the class (escaped in the HTML), London time, address, the link.
    expect(email.from).toBe('hello@finerfitness.example');
    expect(email.text).toContain('You are booked on Outbox Yoga <Flow> & Core with Coach Jess.');
    expect(email.text).toContain(`When: ${when} (London time)\nWhere: ${ADDRESS}`);
    expect(email.text).toContain(`Manage or cancel your booking: ${SITE}/mybookings`);
    expect(email.html).toContain('Outbox Yoga &lt;Flow&gt; &amp; Core with Coach Jess');
    expect(email.html).toContain(`${when} (London time)`);
    expect(email.html).toContain(ADDRESS);
    expect(email.links[0]).toBe(`${SITE}/mybookings`);

    // Delivered once: a later wake-up (the next booking) does not send it again.
    await member.rpc('cancel_booking', { p_booking_id: (booked.data as { booking_id: string }).booking_id });
    await emailTo('standard@studio.test', 'Booking cancelled: ');
    expect(stack.inbox.list().filter((e) => e.subject === email.subject)).toHaveLength(1);
  });

  it('emails a waitlisted member promoted by a cancellation', async () => {
    const cls = await newClass('Outbox Full Pilates', 1);
    const a = await signedIn('standard@studio.test');
    const b = await signedIn('premium@studio.test');
    const booked = await a.rpc('book_class', { p_class_id: cls.id });
    expect(booked.error).toBeNull();
    const joined = await b.rpc('join_waitlist', { p_class_id: cls.id });
    expect(joined.error).toBeNull();
    expect(joined.data).toMatchObject({ position: 1 });
    expect(stack.inbox.list().some((e) => e.to === 'premium@studio.test' && e.subject.includes('Outbox Full Pilates'))).toBe(false);

    expect((await a.rpc('cancel_booking', { p_booking_id: (booked.data as { booking_id: string }).booking_id })).error).toBeNull();

    const when = londonText(cls.start_time);
    const promoted = await emailTo('premium@studio.test', 'A spot opened: ');
    expect(promoted.subject).toBe(`A spot opened: you are booked on Outbox Full Pilates, ${when}`);
    expect(promoted.text).toContain(`Where: ${ADDRESS}`);
    expect(promoted.links[0]).toBe(`${SITE}/mybookings`);
    const mine = await b.from('bookings').select('class_id').eq('class_id', cls.id);
    expect(mine.data).toEqual([{ class_id: cls.id }]);
    const cancelled = await emailTo('standard@studio.test', 'Booking cancelled: Outbox Full Pilates');
    expect(cancelled.links.slice(0, 2)).toEqual([`${SITE}/mybookings`, `${SITE}/my-schedule`]);
  });

  it('stores a guest Contact Us message, emails it to the studio with Reply-To, and shows it to admins', async () => {
    const guest = createClient(stack.url, stack.anonKey, { realtime: { transport: WebSocket as never }, auth: { persistSession: false } });
    const sent = await guest.rpc('submit_contact_message', {
      p_name: 'Gus Guest',
      p_email: 'gus@example.test',
      p_message: 'Do you have showers?',
    });
    expect(sent).toMatchObject({ error: null, data: { status: 'received' } });

    const mail = await emailTo('hello@finerfitness.example', 'Contact Us: enquiry from Gus Guest');
    expect(mail.replyTo).toBe('gus@example.test');
    expect(mail.text).toContain('Do you have showers?');
    expect(mail.links[0]).toBe(`${SITE}/admin/messages`);

    expect((await guest.from('contact_messages').select('id')).error?.code).toBe('42501');
    const admin = await signedIn('admin@studio.test');
    const { data } = await admin.from('contact_messages').select('name, email, message').eq('email', 'gus@example.test');
    expect(data).toEqual([{ name: 'Gus Guest', email: 'gus@example.test', message: 'Do you have showers?' }]);
  });
});
