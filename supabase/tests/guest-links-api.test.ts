import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../local/stack.ts';
import type { Database } from '../../src/lib/database.types.ts';

// A guest's email links as the browser calls them: supabase-js → the gateway → the real PostgREST
// → the database, signed out. A used or unknown link is a refusal the page can word (a 4xx with
// its hint), never a server error: PostgREST answers 500 to SQLSTATE class P0 other than P0001.

type Client = SupabaseClient<Database>;

let stack: Stack;
let service: Client;
let counter = 0;

const client = (key: string): Client =>
  createClient<Database>(stack.url, key, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  });

/** A host booked on a class tomorrow with one guest, written as the studio would; the guest's token. */
async function guestToken(): Promise<string> {
  counter += 1;
  const email = `guest-links-host-${counter}-${Date.now()}@example.test`;
  const created = await service.auth.admin.createUser({ email, password: 'studio123', email_confirm: true });
  if (created.error) throw created.error;
  const host = await service.from('members').select('id').eq('email', email).single();
  if (host.error) throw host.error;
  const klass = await service
    .from('classes')
    .insert({
      name: `Guest Links ${counter}`,
      trainer: 'Coach Links',
      start_time: new Date(Date.now() + 86_400_000).toISOString(),
      capacity: 10,
      unlock_for_standard: '3 days',
    })
    .select('id')
    .single();
  if (klass.error) throw klass.error;
  const booking = await service
    .from('bookings')
    .insert({ member_id: host.data.id, class_id: klass.data.id, type: 'paid' })
    .select('id')
    .single();
  if (booking.error) throw booking.error;
  const place = await service
    .from('guest_places')
    .insert({
      class_id: klass.data.id,
      host_booking_id: booking.data.id,
      host_member_id: host.data.id,
      guest_name: 'Gina Guest',
      guest_email: `gina-${counter}@example.test`,
    })
    .select('cancel_token')
    .single();
  if (place.error) throw place.error;
  return place.data.cancel_token;
}

beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', seed: false, quiet: true });
  service = client(stack.serviceRoleKey);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe("a guest's links through the API", () => {
  it('a cancel link used twice, or a token nobody holds, is refused 404 with guest_not_found, not a server error', async () => {
    const guest = client(stack.anonKey);
    const token = await guestToken();

    // The cancel page reads the place first (decision 0031's token), then cancels on the guest's press.
    const read = await guest.rpc('guest_place_by_token', { p_token: token });
    expect(read.status).toBe(200);
    expect(read.data).toMatchObject({
      guest_name: 'Gina Guest',
      class_name: expect.stringMatching(/^Guest Links /) as unknown,
      cancelled: false,
    });

    const first = await guest.rpc('cancel_guest_place', { p_token: token });
    expect(first.error).toBeNull();
    expect(first.status).toBe(200);

    const again = await guest.rpc('cancel_guest_place', { p_token: token });
    expect(again.status).toBe(404);
    expect(again.error).toMatchObject({
      hint: 'guest_not_found',
      message: 'This guest place has already been cancelled, or the link is not complete',
    });

    const unknown = await guest.rpc('cancel_guest_place', { p_token: 'f'.repeat(48) });
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ hint: 'guest_not_found' });

    const reread = await guest.rpc('guest_place_by_token', { p_token: token });
    expect(reread.status).toBe(404);
    expect(reread.error).toMatchObject({ hint: 'guest_not_found' });

    // The waiver link carries the same token: gone with the place, as clearly.
    const waiver = await guest.rpc('guest_waiver', { p_token: token });
    expect(waiver.status).toBe(404);
    expect(waiver.error).toMatchObject({ hint: 'guest_not_found' });
  });
});
