import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../local/stack.ts';
import type { Database } from '../../src/lib/database.types.ts';
import { cancellingCountsNow } from '../../src/features/booking/lib/late-cancel.ts';

// The booking facts as the app reads them: supabase-js → the gateway → the real PostgREST → the
// database, signed in as each member. Each fact is checked against what the call it predicts
// (book_class, join_waitlist, cancel_booking) then does, as that same member.

type Client = SupabaseClient<Database>;
type Tier = 'trial' | 'payg' | 'standard' | 'premium';

let stack: Stack;
let service: Client;
const PASSWORD = 'studio123';
let counter = 0;

function client(key: string): Client {
  return createClient<Database>(stack.url, key, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

type Member = { label: string; id: string; api: Client };

/** A confirmed account signed in through the auth API, its member row set to `tier` by the studio. */
async function member(label: string, tier: Tier, hasUsedTrial: boolean): Promise<Member> {
  counter += 1;
  const email = `facts-${label}-${counter}-${Date.now()}@example.test`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (created.error) throw created.error;
  const api = client(stack.anonKey);
  const signedIn = await api.auth.signInWithPassword({ email, password: PASSWORD });
  if (signedIn.error) throw signedIn.error;
  const ensured = await api.rpc('ensure_member');
  if (ensured.error) throw ensured.error;
  const id = (ensured.data as { id: string }).id;
  const updated = await service.from('members').update({ membership_tier: tier, has_used_trial: hasUsedTrial }).eq('id', id);
  if (updated.error) throw updated.error;
  return { label, id, api };
}

type ClassFields = { startsInMinutes: number; capacity?: number; premium?: boolean; price?: number | null };

async function klass(name: string, f: ClassFields): Promise<string> {
  const { data, error } = await service
    .from('classes')
    .insert({
      name,
      trainer: 'Coach Facts',
      start_time: new Date(Date.now() + f.startsInMinutes * 60_000).toISOString(),
      capacity: f.capacity ?? 10,
      is_premium: f.premium ?? false,
      unlock_for_standard: '3 days',
      price_payg: f.price === undefined ? 10 : f.price,
    })
    .select('id')
    .single();
  if (error) throw error;
  return data.id;
}

async function facts(who: Member, classId: string) {
  const { data, error } = await who.api.rpc('class_schedule', { p_class_id: classId });
  if (error) throw error;
  expect(data).toHaveLength(1);
  return data[0]!;
}

/** What a call did, in the facts' terms: 'booked', 'payment' (card checkout) or the refusal's hint. */
async function outcome(
  call: PromiseLike<{ data: unknown; error: { hint?: string } | null }>,
  paid = (d: unknown) => (d as { status?: string }).status === 'payment_required',
) {
  const { data, error } = await call;
  if (error) return error.hint ?? 'error';
  return paid(data) ? 'payment' : 'ok';
}

const HOUR = 60;
const DAY = 24 * HOUR;

beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', seed: false, quiet: true });
  service = client(stack.serviceRoleKey);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('class_schedule through the API', () => {
  it('finds a class three weeks ahead by search, and the tiles count every match, not the page', async () => {
    const tag = `Farsight${Date.now()}`;
    const far = await klass(`${tag} Kettlebells`, { startsInMinutes: 21 * DAY });
    await klass(`${tag} Mobility`, { startsInMinutes: 2 * DAY, capacity: 4 });
    await klass(`${tag} Rowing`, { startsInMinutes: 9 * DAY, capacity: 6 });
    const guest = client(stack.anonKey);

    const found = await guest.rpc('class_schedule', { p_search: `${tag.toLowerCase()} kettle` });
    expect(found.error).toBeNull();
    expect(found.data!.map((c) => c.id)).toEqual([far]);

    const page = await guest.rpc('class_schedule', { p_search: tag, p_limit: 1 });
    expect(page.data).toHaveLength(1);
    const tiles = await guest.rpc('class_schedule_summary', { p_search: tag });
    expect(tiles.data).toMatchObject({ total_classes: 3, available_spots: 20, instructors: 1 });
  });

  it('never locks a premium class for a trial member (and locks it for pay-as-you-go)', async () => {
    const premium = await klass('Premium Facts', { startsInMinutes: 10 * DAY, premium: true });
    const trial = await member('trial-lock', 'trial', false);
    const payg = await member('payg-lock', 'payg', true);
    expect(await facts(trial, premium)).toMatchObject({ bookable: true, refusal: null, unlocks_at: null, booking_type: 'trial' });
    expect(await facts(payg, premium)).toMatchObject({ bookable: false, refusal: 'class_locked' });
    expect(await outcome(trial.api.rpc('book_class', { p_class_id: premium }))).toBe('ok');
  });
});

describe('the facts are what the calls then do (parity)', () => {
  it('bookable iff book_class books, and the refusal is its hint', async () => {
    const members = [
      await member('trial', 'trial', false),
      await member('newpayg', 'payg', false),
      await member('payg', 'payg', true),
      await member('standard', 'standard', true),
      await member('premium', 'premium', true),
    ];
    const someoneElse = await member('holder', 'payg', true);
    const heldFull = await klass('Held Facts', { startsInMinutes: 2 * DAY, capacity: 1 });
    // Another member's payment hold that lapsed a minute ago: book_class releases it before deciding.
    const hold = await service.from('bookings').insert({
      member_id: someoneElse.id,
      class_id: heldFull,
      type: 'payg',
      payment_status: 'pending',
      hold_expires_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(hold.error).toBeNull();
    const classes = [
      await klass('Open Facts', { startsInMinutes: 2 * DAY }),
      await klass('Free Facts', { startsInMinutes: 2 * DAY, price: null }),
      await klass('Premium Far Facts', { startsInMinutes: 10 * DAY, premium: true }),
      await klass('Premium Near Facts', { startsInMinutes: DAY, premium: true }),
      await klass('Small Facts', { startsInMinutes: 2 * DAY, capacity: 1 }),
      await klass('Started Facts', { startsInMinutes: -HOUR }),
      heldFull,
    ];
    const seen = new Set<string>();
    for (const classId of classes) {
      for (const m of members) {
        // Twice: a second attempt finds the first one's booking.
        for (let attempt = 0; attempt < 2; attempt += 1) {
          const before = await facts(m, classId);
          const said = before.bookable ? (before.needs_payment ? 'payment' : 'ok') : before.refusal;
          const did = await outcome(m.api.rpc('book_class', { p_class_id: classId }));
          expect(said, `${m.label} on ${classId}`).toBe(did);
          seen.add(did);
        }
      }
    }
    expect(seen).toEqual(new Set(['ok', 'payment', 'class_locked', 'class_full', 'class_started', 'already_booked']));
  });

  it('can_join_waitlist iff join_waitlist accepts, and the refusal is its hint', async () => {
    const members = [
      await member('w-premium', 'premium', true),
      await member('w-payg', 'payg', true),
      await member('w-standard', 'standard', true),
    ];
    const filler = await member('w-filler', 'premium', true);
    const full = await klass('Full Facts', { startsInMinutes: 2 * DAY, capacity: 1 });
    const closing = await klass('Closing Facts', { startsInMinutes: HOUR, capacity: 1 });
    const lockedFull = await klass('Locked Full Facts', { startsInMinutes: 10 * DAY, capacity: 1, premium: true });
    for (const id of [full, closing, lockedFull]) expect(await outcome(filler.api.rpc('book_class', { p_class_id: id }))).toBe('ok');
    const open = await klass('Not Full Facts', { startsInMinutes: 2 * DAY });
    const seen = new Set<string>();
    for (const classId of [full, closing, lockedFull, open]) {
      for (const m of members) {
        for (let attempt = 0; attempt < 2; attempt += 1) {
          const before = await facts(m, classId);
          const said = before.can_join_waitlist ? 'ok' : before.waitlist_refusal;
          const did = await outcome(m.api.rpc('join_waitlist', { p_class_id: classId }), () => false);
          expect(said, `${m.label} joining ${classId}`).toBe(did);
          seen.add(did);
        }
      }
    }
    expect(seen).toEqual(
      new Set(['ok', 'already_waitlisted', 'waitlist_closed', 'class_locked', 'class_not_full', 'waitlist_payment_required']),
    );
  });

  it("my_bookings' late-cancel instant is class_schedule's, and cancel_booking is late exactly from then (same check as the screens)", async () => {
    const m = await member('late', 'standard', true);
    const inside = await klass('Inside Window Facts', { startsInMinutes: 11 * HOUR });
    const outside = await klass('Outside Window Facts', { startsInMinutes: 2 * DAY });
    for (const id of [inside, outside]) expect(await outcome(m.api.rpc('book_class', { p_class_id: id }))).toBe('ok');
    const held = await klass('Hold Facts', { startsInMinutes: 6 * HOUR });
    const hold = await service
      .from('bookings')
      .insert({
        member_id: m.id,
        class_id: held,
        type: 'payg',
        payment_status: 'pending',
        hold_expires_at: new Date(Date.now() + 20 * 60_000).toISOString(),
      })
      .select('id')
      .single();
    expect(hold.error).toBeNull();

    const mine = await m.api.rpc('my_bookings');
    expect(mine.error).toBeNull();
    const rows = mine.data!;
    expect(rows.map((b) => b.class_id).sort()).toEqual([inside, outside, held].sort());
    const heldRow = rows.find((b) => b.class_id === held)!;
    expect(heldRow).toMatchObject({ payment_status: 'pending', late_cancel_from: null });
    expect(heldRow.hold_expires_at).not.toBeNull();

    for (const b of rows) {
      const schedule = await facts(m, b.class_id!);
      expect(schedule.my_booking_id).toBe(b.id);
      if (b.late_cancel_from) expect(new Date(b.late_cancel_from).getTime()).toBe(new Date(schedule.late_cancel_from!).getTime());
      const screenSays = cancellingCountsNow(b, new Date());
      const { data, error } = await m.api.rpc('cancel_booking', { p_booking_id: b.id! });
      expect(error).toBeNull();
      expect((data as { late: boolean }).late, b.class_name!).toBe(screenSays);
    }
    expect(new Set(rows.map((b) => cancellingCountsNow(b, new Date())))).toEqual(new Set([true, false]));
  });

  it('leaves a lapsed hold out of my_bookings', async () => {
    const m = await member('lapsed', 'payg', true);
    const classId = await klass('Lapsed Facts', { startsInMinutes: 2 * DAY });
    const insert = await service.from('bookings').insert({
      member_id: m.id,
      class_id: classId,
      type: 'payg',
      payment_status: 'pending',
      hold_expires_at: new Date(Date.now() - 1000).toISOString(),
    });
    expect(insert.error).toBeNull();
    expect((await m.api.rpc('my_bookings')).data).toEqual([]);
  });
});
