import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../../supabase/local/stack.ts';
import deleteMember from '../functions/delete-member';

/*
 * Removing a member over HTTP against the local stack (GoTrue-compatible auth, PostgREST, the
 * seeded database): the person's login and sessions end, their payments stay, and signing up
 * again with the same email gives no second free trial.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', seed: true, quiet: true });
  vi.stubEnv('SUPABASE_URL', stack.url);
  vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', stack.serviceRoleKey);
  vi.stubEnv('SITE_URL', 'http://127.0.0.1:5999');
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  vi.unstubAllEnvs();
});

async function auth(path: string, body: unknown) {
  return fetch(`${stack.url}/auth/v1/${path}`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
async function signIn(email: string, password = 'studio123') {
  const res = await auth('token?grant_type=password', { email, password });
  return { status: res.status, body: (await res.json()) as { access_token: string; refresh_token: string; user: { id: string } } };
}
async function rest<T>(path: string): Promise<T> {
  const res = await fetch(`${stack.url}/rest/v1/${path}`, {
    headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
  });
  return (await res.json()) as T;
}
const call = (token: string, memberId: unknown) =>
  deleteMember(
    new Request('http://127.0.0.1:5999/.netlify/functions/delete-member', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ memberId }),
    }),
  );

describe('delete-member', () => {
  it('ends the login and its sessions, keeps payments, and a new sign-up gets no second trial', async () => {
    const email = 'trial@studio.test';
    const leaving = await signIn(email);
    expect(leaving.status).toBe(200);
    const [member] = await rest<{ id: string }[]>(`members?select=id&email=eq.${email}`);
    const admin = await signIn('admin@studio.test');

    const res = await call(admin.body.access_token, member!.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ memberId: member!.id });
    expect(await rest(`members?select=id&id=eq.${member!.id}`)).toEqual([]);

    // Their session cannot be refreshed and their password no longer signs in.
    expect((await auth('token?grant_type=refresh_token', { refresh_token: leaving.body.refresh_token })).status).toBeGreaterThanOrEqual(
      400,
    );
    expect((await signIn(email)).status).toBe(400);

    // The same email signs up again, even through the free-trial page: pay-as-you-go, trial used.
    expect(
      (await auth('signup', { email, password: 'secret456', data: { full_name: 'Back Again', signup_source: 'free-trial' } })).status,
    ).toBe(200);
    const again = await rest<{ membership_tier: string; has_used_trial: boolean }[]>(
      `members?select=membership_tier,has_used_trial&email=eq.${email}`,
    );
    expect(again).toEqual([{ membership_tier: 'payg', has_used_trial: true }]);
  });

  it('refuses a member who is not an admin, and an admin deleting themself', async () => {
    const standard = await signIn('standard@studio.test');
    const [premium] = await rest<{ id: string }[]>('members?select=id&email=eq.premium@studio.test');
    const refused = await call(standard.body.access_token, premium!.id);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: 'not_admin', message: 'Access denied' });

    const admin = await signIn('admin@studio.test');
    const [self] = await rest<{ id: string }[]>('members?select=id&email=eq.admin@studio.test');
    const own = await call(admin.body.access_token, self!.id);
    expect(own.status).toBe(409);
    expect(await rest(`members?select=id&id=eq.${premium!.id}`)).toHaveLength(1);
  });

  it('a member closes their own account: data gone, payments kept, the login removed (decision 0047)', async () => {
    const email = 'newpayg@studio.test';
    const leaving = await signIn(email);
    const [member] = await rest<{ id: string }[]>(`members?select=id&email=eq.${email}`);
    const paymentsBefore = await rest<unknown[]>(`payments?select=id&billed_email=eq.${email}`);
    const res = await deleteMember(
      new Request('http://127.0.0.1:5999/.netlify/functions/delete-member', {
        method: 'POST',
        headers: { authorization: `Bearer ${leaving.body.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ own: true }),
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ memberId: member!.id });
    expect(await rest(`members?select=id&id=eq.${member!.id}`)).toEqual([]);
    expect(await rest(`bookings?select=id&member_id=eq.${member!.id}`)).toEqual([]);
    expect(await rest<unknown[]>(`payments?select=id&billed_email=eq.${email}`)).toHaveLength(paymentsBefore.length);
    expect((await signIn(email)).status).toBe(400);
  });

  it('refuses to close an admin account from the profile', async () => {
    const admin = await signIn('admin@studio.test');
    const res = await deleteMember(
      new Request('http://127.0.0.1:5999/.netlify/functions/delete-member', {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.body.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ own: true }),
      }),
    );
    expect(res.status).toBe(403);
    expect(await rest(`members?select=id&email=eq.admin@studio.test`)).toHaveLength(1);
  });

  it('refuses a request that is not a member id', async () => {
    const admin = await signIn('admin@studio.test');
    expect((await call(admin.body.access_token, 'drop table')).status).toBe(400);
  });
});
