import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../tests/support/raw-http';
import { startStack, type Stack } from './stack';

// One in-memory stack for the whole file, driven by supabase-js exactly as the app uses it.
let stack: Stack;
const PASSWORD = 'studio123';

function client(): SupabaseClient {
  return createClient(stack.url, stack.anonKey, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

async function signedIn(email: string, password = PASSWORD): Promise<SupabaseClient> {
  const c = client();
  const { error } = await c.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return c;
}

function latestEmail(to: string) {
  const email = stack.inbox.list().find((e) => e.to === to);
  if (!email) throw new Error(`no email to ${to}`);
  return email;
}

/**
 * The /verify link of an emailed link (the emails link to the site's /auth/callback?token_hash=…&type=…):
 * GoTrue's `{{ .ConfirmationURL }}` for the same token, which links sent before carried.
 */
function verifyUrlOf(link: string): string {
  const url = new URL(link);
  const type = url.searchParams.get('type');
  return `${stack.url}/auth/v1/verify?token=${url.searchParams.get('token_hash')}&type=${type === 'email' ? 'signup' : type}`;
}

/** Follows an emailed /verify link as a browser would and returns the redirect's fragment parameters. */
async function followLink(link: string): Promise<{ location: string; params: URLSearchParams }> {
  const res = await fetch(link, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const location = res.headers.get('location')!;
  return { location, params: new URLSearchParams(location.split('#')[1] ?? '') };
}

async function memberId(c: SupabaseClient): Promise<string> {
  const { data, error } = await c.rpc('ensure_member');
  if (error) throw error;
  return (data as { id: string }).id;
}

beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', quiet: true, siteUrl: 'http://127.0.0.1:5173' });
});

afterAll(async () => {
  await stack?.stop();
});

describe('gateway', () => {
  it('refuses requests without a valid apikey', async () => {
    expect((await fetch(`${stack.url}/rest/v1/classes`)).status).toBe(401);
    const inQuery = await fetch(`${stack.url}/rest/v1/classes?select=id&limit=1&apikey=${stack.anonKey}`);
    expect(inQuery.status).toBe(200);
    const forged = stack.anonKey.slice(0, -4) + 'AAAA';
    expect((await fetch(`${stack.url}/rest/v1/classes`, { headers: { apikey: forged } })).status).toBe(401);
  });

  it('answers CORS preflights for the headers supabase-js sends from the browser', async () => {
    const res = await fetch(`${stack.url}/storage/v1/object/avatars/x.png`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'apikey,authorization,x-client-info,x-upsert,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    for (const h of ['apikey', 'authorization', 'x-client-info', 'x-upsert', 'prefer', 'accept-profile', 'x-supabase-api-version']) {
      expect(res.headers.get('access-control-allow-headers')).toContain(h);
    }
    const auth = await fetch(`${stack.url}/auth/v1/settings`, { headers: { apikey: stack.anonKey } });
    expect(auth.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    const rest = await fetch(`${stack.url}/rest/v1/classes?select=id&limit=1`, { headers: { apikey: stack.anonKey } });
    expect(rest.headers.get('access-control-expose-headers')).toContain('content-range');
  });

  it('exposes only the public schema to callers', async () => {
    const res = await fetch(`${stack.url}/rest/v1/rpc/user_by_email`, {
      method: 'POST',
      headers: { apikey: stack.serviceRoleKey, 'content-profile': 'local_gateway', 'content-type': 'application/json' },
      body: '{"p_email":"admin@studio.test"}',
    });
    expect(res.status).toBe(406);
  });

  it('answers a missing function with a clear 404', async () => {
    const res = await fetch(`${stack.url}/.netlify/functions/no-such-function`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toContain('netlify/functions/no-such-function.ts');
  });
});

describe('auth', () => {
  it('signs up, refuses sign-in until the emailed link is followed, then signs in', async () => {
    const c = client();
    const email = 'newcomer@example.com';
    const { data, error } = await c.auth.signUp({
      email,
      password: 'secret123',
      options: { data: { full_name: 'New Comer', signup_source: 'free-trial' }, emailRedirectTo: 'http://127.0.0.1:5173/auth/callback' },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.user_metadata.full_name).toBe('New Comer');

    const early = await c.auth.signInWithPassword({ email, password: 'secret123' });
    expect(early.error?.code).toBe('email_not_confirmed');
    expect(early.error?.message).toBe('Email not confirmed');

    const mail = latestEmail(email);
    expect(mail.subject).toBe('Confirm your email for Finer Fitness');
    expect(mail.links[0]).toMatch(/^http:\/\/127\.0\.0\.1:5173\/auth\/callback\?token_hash=[0-9a-f]{56}&type=email$/);
    const { location, params } = await followLink(verifyUrlOf(mail.links[0]!));
    expect(location.startsWith('http://127.0.0.1:5173/auth/callback#')).toBe(true);
    expect(params.get('type')).toBe('signup');
    expect(params.get('token_type')).toBe('bearer');
    expect(params.get('refresh_token')).toBeTruthy();

    // The link is single-use.
    const again = await followLink(verifyUrlOf(mail.links[0]!));
    expect(again.params.get('error_code')).toBe('otp_expired');

    const { data: session, error: signInError } = await c.auth.signInWithPassword({ email, password: 'secret123' });
    expect(signInError).toBeNull();
    expect(session.session?.expires_in).toBe(3600);
    const { data: member } = await c.from('members').select('email, membership_tier').single();
    expect(member).toEqual({ email, membership_tier: 'trial' });
  });

  it('maps the refusals to GoTrue codes', async () => {
    const c = client();
    const wrong = await c.auth.signInWithPassword({ email: 'standard@studio.test', password: 'nope-nope' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    const weak = await c.auth.signUp({ email: 'weak@example.com', password: 'x' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password', message: 'Password should be at least 6 characters.' });
  });

  it('refreshes with rotation, and logout revokes the refresh token', async () => {
    const c = await signedIn('standard@studio.test');
    const first = (await c.auth.getSession()).data.session!;
    const { data, error } = await c.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session!.refresh_token).not.toBe(first.refresh_token);
    expect(data.user!.email).toBe('standard@studio.test');

    const refreshToken = data.session!.refresh_token;
    await c.auth.signOut();
    const res = await fetch(`${stack.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('refresh_token_not_found');
    const stale = await fetch(`${stack.url}/auth/v1/user`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${data.session!.access_token}` },
    });
    expect(stale.status).toBe(403);
  });

  it('refuses a bad token', async () => {
    const res = await fetch(`${stack.url}/auth/v1/user`, { headers: { apikey: stack.anonKey, authorization: 'Bearer not.a.jwt' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('bad_jwt');
    const rest = await fetch(`${stack.url}/rest/v1/classes?select=id`, {
      headers: { apikey: stack.anonKey, authorization: 'Bearer not.a.jwt' },
    });
    expect(rest.status).toBe(401);
  });

  it('changes the password and recovers it through the emailed link', async () => {
    const email = 'newpayg@studio.test';
    const c = await signedIn(email);
    const { error } = await c.auth.updateUser({ password: 'changed-1' });
    expect(error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe('invalid_credentials');
    await signedIn(email, 'changed-1');

    stack.inbox.clear();
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const mail = latestEmail(email);
    expect(mail.subject).toBe('Reset your Finer Fitness password');
    const { location, params } = await followLink(verifyUrlOf(mail.links[0]!));
    expect(location.startsWith('http://127.0.0.1:5173/auth/callback#')).toBe(true);
    expect(params.get('type')).toBe('recovery');

    const r = client();
    await r.auth.setSession({ access_token: params.get('access_token')!, refresh_token: params.get('refresh_token')! });
    expect((await r.auth.updateUser({ password: PASSWORD })).error).toBeNull();
    await signedIn(email);
  });

  it('updates user metadata and verifies an emailed token by POST', async () => {
    const c = await signedIn('trial@studio.test');
    const { data } = await c.auth.updateUser({ data: { favourite: 'HIIT' } });
    expect(data.user?.user_metadata).toMatchObject({ favourite: 'HIIT', full_name: 'Ava Turner' });

    stack.inbox.clear();
    await client().auth.resetPasswordForEmail('trial@studio.test');
    const token = new URL(latestEmail('trial@studio.test').links[0]!).searchParams.get('token_hash')!;
    const verified = await client().auth.verifyOtp({ token_hash: token, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe('trial@studio.test');
  });

  it('lets the service role delete a user', async () => {
    const admin = createClient(stack.url, stack.serviceRoleKey, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false },
    });
    const { data } = await admin.auth.admin.createUser({ email: 'gone@example.com', password: 'secret123', email_confirm: true });
    expect((await admin.auth.admin.deleteUser(data.user!.id)).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email: 'gone@example.com', password: 'secret123' })).error?.code).toBe(
      'invalid_credentials',
    );
    const anon = client();
    expect((await anon.auth.admin.deleteUser(data.user!.id)).error).not.toBeNull();
  });
});

describe('rest', () => {
  it('selects with embeds, filters, counts, single and maybeSingle', async () => {
    const c = await signedIn('premium@studio.test');
    const { data: bookings, error } = await c
      .from('bookings')
      .select('id, booked_at, members(name, email), classes(name, start_time, trainer)')
      .order('booked_at', { ascending: false });
    expect(error).toBeNull();
    expect(bookings!.length).toBeGreaterThan(0);
    expect(bookings!.every((b) => (b.members as unknown as { email: string }).email === 'premium@studio.test')).toBe(true);

    const { count } = await c.from('classes').select('*', { count: 'exact', head: true }).eq('type', 'One-to-One');
    expect(count).toBeGreaterThan(0);
    const upcoming = await c
      .from('classes')
      .select('id, start_time')
      .gt('start_time', new Date().toISOString())
      .order('start_time')
      .limit(3);
    expect(upcoming.data).toHaveLength(3);

    const me = await c.from('members').select('is_admin').eq('email', 'premium@studio.test').single();
    expect(me.data).toEqual({ is_admin: false });
    const nobody = await c.from('members').select('is_admin').eq('email', 'nobody@studio.test').maybeSingle();
    expect(nobody).toMatchObject({ data: null, error: null });
    const none = await c.from('members').select('is_admin').eq('email', 'nobody@studio.test').single();
    expect(none.error?.code).toBe('PGRST116');
  });

  it("hides other members' rows and refuses writes the policies forbid", async () => {
    const standard = await signedIn('standard@studio.test');
    const others = await standard.from('members').select('email').eq('email', 'premium@studio.test');
    expect(others.data).toEqual([]);
    const renamed = await standard.from('members').update({ name: 'Hacked' }).eq('email', 'premium@studio.test').select().maybeSingle();
    expect(renamed.data).toBeNull();
    const insert = await standard
      .from('classes')
      .insert({ name: 'Rogue', start_time: new Date(Date.now() + 864e5).toISOString(), trainer: 'X' });
    expect(insert.error?.code).toBe('42501');
    const own = await standard
      .from('members')
      .update({ phone: '020 0000 0000' })
      .eq('email', 'standard@studio.test')
      .select('phone')
      .single();
    expect(own.data).toEqual({ phone: '020 0000 0000' });
  });

  it('runs RPCs as different users: book, cancel, admin-only stats', async () => {
    const standard = await signedIn('standard@studio.test');
    const { data: free } = await standard
      .from('classes')
      .select('id, spots_left')
      .gt('start_time', new Date(Date.now() + 864e5).toISOString())
      .eq('is_premium', false)
      .gt('spots_left', 3)
      .order('start_time')
      .limit(1)
      .single();
    const booked = await standard.rpc('book_class', { p_class_id: free!.id });
    expect(booked.error).toBeNull();
    expect(booked.data).toMatchObject({ status: 'booked', booking_type: 'paid', spots_left: free!.spots_left - 1 });
    const twice = await standard.rpc('book_class', { p_class_id: free!.id });
    expect(twice.error).toMatchObject({ code: '23505', hint: 'already_booked' });

    const premium = await signedIn('premium@studio.test');
    const bookingId = (booked.data as { booking_id: string }).booking_id;
    const stolen = await premium.rpc('cancel_booking', { p_booking_id: bookingId });
    expect(stolen.error).toMatchObject({ hint: 'not_permitted', message: 'Could not cancel this booking (permission).' });
    expect((await standard.rpc('cancel_booking', { p_booking_id: bookingId })).data).toMatchObject({ spots_left: free!.spots_left });

    expect((await standard.rpc('admin_stats')).error?.hint).toBe('not_admin');
    const admin = await signedIn('admin@studio.test');
    const stats = await admin.rpc('admin_stats');
    expect((stats.data as { total_members: number }).total_members).toBeGreaterThanOrEqual(6);
  });

  it('lets an admin insert, update and delete a class', async () => {
    const admin = await signedIn('admin@studio.test');
    const start = new Date(Date.now() + 10 * 864e5).toISOString();
    const created = await admin.from('classes').insert({ name: 'Test Class', start_time: start, trainer: 'Coach Alex' }).select().single();
    expect(created.error).toBeNull();
    const updated = await admin.from('classes').update({ capacity: 20 }).eq('id', created.data!.id).select('capacity, spots_left').single();
    expect(updated.data).toEqual({ capacity: 20, spots_left: 20 });
    expect((await admin.from('classes').delete().eq('id', created.data!.id)).error).toBeNull();
    expect((await admin.from('classes').select('id').eq('id', created.data!.id)).data).toEqual([]);
  });
});

describe('storage', () => {
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]);

  it('uploads a member photo, serves it publicly with its content type, and deletes it', async () => {
    const c = await signedIn('premium@studio.test');
    const id = await memberId(c);
    const up = await c.storage.from('avatars').upload(`${id}.png`, png, { contentType: 'image/png', upsert: true });
    expect(up.error).toBeNull();
    expect(up.data?.fullPath).toBe(`avatars/${id}.png`);
    // Replacing needs x-upsert; the form upload goes as multipart.
    const form = new FormData();
    form.append('', new Blob([png], { type: 'image/png' }), 'photo.png');
    expect((await c.storage.from('avatars').upload(`${id}.png`, form, { upsert: true })).error).toBeNull();
    expect((await c.storage.from('avatars').upload(`${id}.png`, png, { contentType: 'image/png' })).error?.message).toBe(
      'The resource already exists',
    );

    const downloaded = await c.storage.from('avatars').download(`${id}.png`);
    expect(Buffer.from(await downloaded.data!.arrayBuffer()).equals(png)).toBe(true);

    const url = c.storage.from('avatars').getPublicUrl(`${id}.png`).data.publicUrl;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);

    const removed = await c.storage.from('avatars').remove([`${id}.png`]);
    expect(removed.data).toHaveLength(1);
    expect((await fetch(url)).status).toBe(400);
  });

  it("refuses another member's photo, oversize files and other types", async () => {
    const standard = await signedIn('standard@studio.test');
    const premiumId = await memberId(await signedIn('premium@studio.test'));
    const foreign = await standard.storage.from('avatars').upload(`${premiumId}.png`, png, { contentType: 'image/png' });
    expect(foreign.error?.message).toBe('new row violates row-level security policy');

    const id = await memberId(standard);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 1);
    const oversize = await standard.storage.from('avatars').upload(`${id}.png`, big, { contentType: 'image/png' });
    expect(oversize.error).toMatchObject({ status: 413, statusCode: '413', message: 'The object exceeded the maximum allowed size' });
    const text = await standard.storage.from('avatars').upload(`${id}.png`, Buffer.from('hi'), { contentType: 'text/plain' });
    expect(text.error).toMatchObject({ statusCode: '415' });
    const missing = await standard.storage.from('nope').upload('x.png', png, { contentType: 'image/png' });
    expect(missing.error?.message).toBe('Bucket not found');
  });

  it('answers an over-size upload 413 and keeps the connection usable for the next request', async () => {
    const size = 6 * 1024 * 1024;
    const headers = `Host: 127.0.0.1\r\napikey: ${stack.anonKey}\r\nConnection: keep-alive\r\n`;
    const text = await rawExchange(
      stack.port,
      [
        `POST /storage/v1/object/avatars/too-big.png HTTP/1.1\r\n${headers}Content-Type: image/png\r\nContent-Length: ${size}\r\n\r\n${'x'.repeat(size)}`,
        `GET /rest/v1/classes?select=id&limit=1 HTTP/1.1\r\n${headers}\r\n`,
      ],
      2,
    );
    const [upload, next] = text.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(upload).toMatch(/^HTTP\/1\.1 413 /);
    expect(upload).toContain('"statusCode":"413"');
    expect(next).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('lists a folder as Storage does: one level, names relative to it, folders without id', async () => {
    const admin = createClient(stack.url, stack.serviceRoleKey, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false },
    });
    const bucket = admin.storage.from('avatars');
    for (const name of ['listing/b.png', 'listing/a.png', 'listing/sub/c.png', 'elsewhere.png']) {
      expect((await bucket.upload(name, png, { contentType: 'image/png', upsert: true })).error).toBeNull();
    }
    const { data, error } = await bucket.list('listing');
    expect(error).toBeNull();
    expect(data!.map((e) => [e.name, e.id === null])).toEqual([
      ['a.png', false],
      ['b.png', false],
      ['sub', true],
    ]);
    expect(data![0]).toMatchObject({ metadata: { size: png.length, mimetype: 'image/png' } });
    expect((await bucket.list('listing', { search: 'b' })).data!.map((e) => e.name)).toEqual(['b.png']);
    expect(
      (await bucket.list('listing', { limit: 1, offset: 1, sortBy: { column: 'name', order: 'desc' } })).data!.map((e) => e.name),
    ).toEqual(['b.png']);
    expect((await bucket.list('listing/sub')).data!.map((e) => e.name)).toEqual(['c.png']);
    await bucket.remove(['listing/b.png', 'listing/a.png', 'listing/sub/c.png', 'elsewhere.png']);
  });
});

describe('realtime', () => {
  it("delivers a booking's change to spots_left, and only rows the subscriber may see", async () => {
    const watcher = await signedIn('premium@studio.test');
    const booker = await signedIn('standard@studio.test');
    // A class the booker has not booked yet (the demo data books them into some).
    const { data: mine } = await booker.from('bookings').select('class_id');
    const booked = new Set((mine ?? []).map((b) => b.class_id));
    const { data: candidates } = await booker
      .from('classes')
      .select('id, spots_left')
      .gt('start_time', new Date(Date.now() + 2 * 864e5).toISOString())
      .eq('is_premium', false)
      .gt('spots_left', 3)
      .order('start_time')
      .limit(50);
    const target = (candidates ?? []).find((c) => !booked.has(c.id));

    const classChanges: Array<Record<string, unknown>> = [];
    const foreignBookings: unknown[] = [];
    const ownBookings: unknown[] = [];
    const subscribed = (c: ReturnType<SupabaseClient['channel']>) =>
      new Promise<void>((resolve, reject) =>
        c.subscribe((status: string, err?: Error) =>
          status === 'SUBSCRIBED' ? resolve() : status !== 'CLOSED' && reject(err ?? new Error(status)),
        ),
      );
    const classChannel = watcher
      .channel('class-spots')
      .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'classes', filter: `id=eq.${target!.id}` }, (p) =>
        classChanges.push(p.new),
      );
    const watcherBookings = watcher
      .channel('watcher-bookings')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'bookings' }, (p) => foreignBookings.push(p.new));
    const bookerBookings = booker
      .channel('booker-bookings')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'bookings' }, (p) => ownBookings.push(p.new));
    await Promise.all([subscribed(classChannel), subscribed(watcherBookings), subscribed(bookerBookings)]);

    expect((await booker.rpc('book_class', { p_class_id: target!.id })).error).toBeNull();
    await expect.poll(() => classChanges.length, { timeout: 5000 }).toBe(1);
    expect(classChanges[0]).toMatchObject({ id: target!.id, spots_left: target!.spots_left - 1 });
    await expect.poll(() => ownBookings.length, { timeout: 5000 }).toBe(1);
    expect(foreignBookings).toEqual([]);

    await Promise.all([watcher.removeAllChannels(), booker.removeAllChannels()]);
  });
});

describe('realtime DELETE events, as hosted Realtime sends them', () => {
  it('carry only the primary key, and a filter outside the key does not match (replica identity default)', async () => {
    const admin = await signedIn('admin@studio.test');
    const watcher = await signedIn('premium@studio.test');
    const trainer = `Coach Delete ${Date.now()}`;
    const created = await admin
      .from('classes')
      .insert({ name: 'Deleted Class', start_time: new Date(Date.now() + 12 * 864e5).toISOString(), trainer })
      .select('id')
      .single();
    const id = created.data!.id as string;
    const byKey: Array<Record<string, unknown>> = [];
    const byTrainer: unknown[] = [];
    const unfiltered: Array<Record<string, unknown>> = [];
    const channel = watcher
      .channel('deletes')
      .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'classes', filter: `id=eq.${id}` }, (p) => byKey.push(p.old))
      .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'classes', filter: `trainer=eq.${trainer}` }, (p) =>
        byTrainer.push(p.old),
      )
      .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'classes' }, (p) => unfiltered.push(p.old));
    await new Promise<void>((resolve, reject) =>
      channel.subscribe((status: string) =>
        status === 'SUBSCRIBED' ? resolve() : status === 'CHANNEL_ERROR' && reject(new Error(status)),
      ),
    );
    expect((await admin.from('classes').delete().eq('id', id)).error).toBeNull();
    await expect.poll(() => unfiltered.length, { timeout: 5000 }).toBe(1);
    await expect.poll(() => byKey.length, { timeout: 5000 }).toBe(1);
    expect(byKey[0]).toEqual({ id });
    expect(unfiltered[0]).toEqual({ id });
    // The old row WAL carries is the key alone: a trainer filter never sees the delete.
    await new Promise((r) => setTimeout(r, 300));
    expect(byTrainer).toEqual([]);
    await watcher.removeAllChannels();
  });
});

describe('realtime ordering', () => {
  it('delivers successive changes of a row in commit order', async () => {
    const admin = await signedIn('admin@studio.test');
    const start = new Date(Date.now() + 12 * 864e5).toISOString();
    const { data: created } = await admin
      .from('classes')
      .insert({ name: 'Order Test', start_time: start, trainer: 'Coach Alex' })
      .select('id')
      .single();
    const seen: number[] = [];
    await new Promise<void>((resolve) =>
      admin
        .channel('order')
        .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'classes', filter: `id=eq.${created!.id}` }, (p) =>
          seen.push((p.new as { capacity: number }).capacity),
        )
        .subscribe((status: string) => status === 'SUBSCRIBED' && resolve()),
    );
    await Promise.all([11, 12, 13, 14].map((capacity) => admin.from('classes').update({ capacity }).eq('id', created!.id)));
    await expect.poll(() => seen.length, { timeout: 5000 }).toBe(4);
    const { data: final } = await admin.from('classes').select('capacity').eq('id', created!.id).single();
    expect(seen[3]).toBe(final!.capacity);
    await admin.removeAllChannels();
    await admin.from('classes').delete().eq('id', created!.id);
  });
});

describe('realtime protocol', () => {
  /** A raw socket that collects frames, for the protocol details supabase-js hides. */
  async function socket(vsn: string) {
    const ws = new WebSocket(`${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.anonKey}&vsn=${vsn}`);
    const frames: unknown[] = [];
    ws.on('message', (d: Buffer) => frames.push(JSON.parse(d.toString())));
    await new Promise((r) => ws.once('open', r));
    return { ws, frames };
  }

  it('speaks vsn 1.0.0 objects: join reply, heartbeat, access token, leave, bad filter', async () => {
    const { ws, frames } = await socket('1.0.0');
    const send = (o: object) => ws.send(JSON.stringify(o));
    send({
      topic: 'realtime:t',
      event: 'phx_join',
      ref: '1',
      join_ref: '1',
      payload: { config: { postgres_changes: [{ event: 'UPDATE', schema: 'public', table: 'classes', filter: 'id=eq.x' }] } },
    });
    send({ topic: 'phoenix', event: 'heartbeat', ref: '2', payload: {} });
    send({ topic: 'realtime:t', event: 'access_token', ref: '3', join_ref: '1', payload: { access_token: stack.anonKey } });
    send({
      topic: 'realtime:bad',
      event: 'phx_join',
      ref: '4',
      join_ref: '4',
      payload: { config: { postgres_changes: [{ event: '*', schema: 'public', table: 'classes', filter: 'id=like.x' }] } },
    });
    send({ topic: 'realtime:t', event: 'phx_leave', ref: '5', join_ref: '1', payload: {} });
    await expect.poll(() => frames.length).toBeGreaterThanOrEqual(6);
    ws.close();
    expect(frames).toContainEqual({
      join_ref: '1',
      ref: '1',
      topic: 'realtime:t',
      event: 'phx_reply',
      payload: {
        status: 'ok',
        response: { postgres_changes: [expect.objectContaining({ event: 'UPDATE', table: 'classes', filter: 'id=eq.x' })] },
      },
    });
    expect(frames).toContainEqual(
      expect.objectContaining({ topic: 'realtime:t', event: 'system', payload: expect.objectContaining({ status: 'ok' }) }),
    );
    expect(frames).toContainEqual({
      join_ref: null,
      ref: '2',
      topic: 'phoenix',
      event: 'phx_reply',
      payload: { status: 'ok', response: {} },
    });
    expect(frames).toContainEqual(expect.objectContaining({ ref: '3', event: 'phx_reply', payload: { status: 'ok', response: {} } }));
    expect(frames).toContainEqual(expect.objectContaining({ ref: '4', payload: expect.objectContaining({ status: 'error' }) }));
    expect(frames).toContainEqual(expect.objectContaining({ ref: '5', event: 'phx_reply', payload: { status: 'ok', response: {} } }));
  });

  it('refuses a websocket without a valid apikey', async () => {
    const ws = new WebSocket(`${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=nope&vsn=2.0.0`);
    const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(401);
  });
});

describe('inbox', () => {
  it('receives auth emails through SMTP and shows them only to its own origin', async () => {
    stack.inbox.clear();
    // Another address than the recovery tests': GoTrue sends one recovery a minute per user.
    await client().auth.resetPasswordForEmail('payg@studio.test');
    const [mail] = stack.inbox.list();
    // The committed hosted template, filled in; both parts; from the studio.
    expect(mail).toMatchObject({
      to: 'payg@studio.test',
      from: 'hello@finerfitness.example',
      subject: 'Reset your Finer Fitness password',
    });
    expect(mail!.html).toContain('Choose a new password');
    expect(mail!.html).not.toContain('{{');
    expect(mail!.text).toContain('Reset your password');
    expect(mail!.text).toContain(mail!.links[0]);
    expect(mail!.links[0]).toMatch(/^http:\/\/127\.0\.0\.1:5173\/auth\/callback\?token_hash=[0-9a-f]{56}&type=recovery$/);

    const res = await fetch(`${stack.url}/inbox`, { headers: { origin: 'https://evil.example' } });
    const page = await res.text();
    expect(page).toContain('payg@studio.test');
    expect(page).toContain(`src="/inbox/${mail!.id}/html" sandbox="allow-popups allow-popups-to-escape-sandbox"`);
    expect(page).toContain('<pre class="text">');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');

    const framed = await fetch(`${stack.url}/inbox/${mail!.id}/html`);
    expect(framed.headers.get('content-security-policy')).toMatch(/^sandbox allow-popups allow-popups-to-escape-sandbox;/);
    expect(await framed.text()).toContain('<base target="_blank">');

    const json = await fetch(`${stack.url}/inbox.json`, { headers: { origin: 'https://evil.example' } });
    expect(json.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await json.json()) as Array<{ to: string }>)[0]?.to).toBe('payg@studio.test');
  });
});
