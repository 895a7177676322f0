import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../../supabase/local/stack.ts';
import checkoutStatus from '../functions/checkout-status';
import createCheckout from '../functions/create-checkout';
import createClassCheckout from '../functions/create-class-checkout';
import changeMembership from '../functions/change-membership';
import paymentWebhook from '../functions/payment-webhook';
import testCheckout from '../functions/test-checkout';
import updateCard from '../functions/update-card';
import cardStatus from '../functions/card-status';
import { runScheduledJobs } from '../lib/jobs/scheduled-jobs';
import { selectProvider } from '../lib/payments/select-provider';
import { readServerEnv } from '../lib/server-env';
import { serviceDb } from '../lib/supabase-server';

/*
 * The whole local payment flow over HTTP: the local stack (in memory, seeded) for auth and the
 * database; with no SUMUP_API_KEY the functions use the test provider, whose Pay / Decline page
 * notifies the webhook over HTTP, which verifies through the provider interface.
 *
 * The functions are served here by a minimal host rather than the gateway's FunctionsHost: that
 * one re-imports `<name>.ts?v=<mtime>`, which Vite's transform (under vitest) does not treat as
 * TypeScript. Same Request in, same Response out.
 */
const SITE = 'http://127.0.0.1:5999';
const HANDLERS: Record<string, (req: Request) => Promise<Response>> = {
  'checkout-status': checkoutStatus,
  'create-checkout': createCheckout,
  'create-class-checkout': createClassCheckout,
  'payment-webhook': paymentWebhook,
  'test-checkout': testCheckout,
  'update-card': updateCard,
  'card-status': cardStatus,
  'change-membership': changeMembership,
};
let stack: Stack;
let functionsHost: Server;
let functionsUrl: string;
let token: string;
let userId: string;

function startFunctionsHost(): Promise<string> {
  functionsHost = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const handler = HANDLERS[url.pathname.replace('/.netlify/functions/', '')];
        if (!handler) return void res.writeHead(404).end();
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
        const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(Buffer.concat(chunks));
        const response = await handler(new Request(`${functionsUrl}${url.pathname}${url.search}`, { method: req.method, headers, body }));
        const out: Record<string, string> = {};
        response.headers.forEach((value, key) => (out[key] = value));
        res.writeHead(response.status, out);
        res.end(Buffer.from(await response.arrayBuffer()));
      })();
    });
  });
  return new Promise((resolve) =>
    functionsHost.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(functionsHost.address() as AddressInfo).port}`)),
  );
}

/** The test provider links to the gateway's functions; this host serves the same paths. */
const viaHost = (url: string) => url.replace(stack.url, functionsUrl);

beforeAll(async () => {
  vi.stubEnv('SUMUP_API_KEY', '');
  vi.stubEnv('SITE_URL', SITE);
  stack = await startStack({ port: 0, dataDir: 'memory', seed: true, quiet: true, siteUrl: SITE });
  functionsUrl = await startFunctionsHost();
  vi.stubEnv('PAYMENT_WEBHOOK_URL', `${functionsUrl}/.netlify/functions/payment-webhook`);
  const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'payg@studio.test', password: 'studio123' }),
  });
  const session = (await res.json()) as { access_token: string; user: { id: string } };
  token = session.access_token;
  userId = session.user.id;
}, 120_000);

afterAll(async () => {
  await new Promise((r) => functionsHost?.close(r));
  await stack?.stop();
  vi.unstubAllEnvs();
});

const service = () => ({ apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` });
const member = () => ({ apikey: stack.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' });

async function rest<T>(path: string): Promise<T> {
  const res = await fetch(`${stack.url}/rest/v1/${path}`, { headers: service() });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** A bookable pay-as-you-go class this member has not booked yet. */
async function freeClass(skip: string[] = []): Promise<{ id: string; spots_left: number; price_payg: number }> {
  const classes = await rest<{ id: string; spots_left: number; price_payg: number }[]>(
    `classes?select=id,spots_left,price_payg&is_premium=eq.false&price_payg=gt.0&spots_left=gt.1&start_time=gt.${new Date(Date.now() + 3_600_000).toISOString()}&order=start_time&limit=30`,
  );
  const booked = new Set(
    (await rest<{ class_id: string }[]>(`bookings?select=class_id,members!inner(user_id)&members.user_id=eq.${userId}`)).map(
      (b) => b.class_id,
    ),
  );
  const found = classes.find((c) => !booked.has(c.id) && !skip.includes(c.id));
  if (!found) throw new Error('the seed has no bookable pay-as-you-go class');
  return found;
}

const spotsLeft = async (classId: string) =>
  (await rest<{ spots_left: number }[]>(`classes?select=spots_left&id=eq.${classId}`))[0]!.spots_left;
const myBooking = async (classId: string) =>
  (
    await rest<{ payment_status: string; type: string }[]>(
      `bookings?select=payment_status,type,members!inner(user_id)&class_id=eq.${classId}&members.user_id=eq.${userId}`,
    )
  )[0] ?? null;

async function fn(name: string, body: unknown, as = token): Promise<Response> {
  return fetch(`${functionsUrl}/.netlify/functions/${name}`, {
    method: 'POST',
    headers: { ...member(), authorization: `Bearer ${as}` },
    body: JSON.stringify(body),
  });
}

async function signIn(email: string): Promise<{ token: string; userId: string }> {
  const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'studio123' }),
  });
  const session = (await res.json()) as { access_token: string; user: { id: string } };
  return { token: session.access_token, userId: session.user.id };
}

/** `npm run jobs -- --at` as this test runs it: the same jobs, the test provider's clock at `at`. */
async function jobsAt(at: Date) {
  const env = readServerEnv();
  return runScheduledJobs(
    serviceDb(env),
    selectProvider(env, { now: () => at.getTime() }),
    at,
    `${functionsUrl}/.netlify/functions/payment-webhook`,
  );
}

type MemberState = {
  membership_tier: string;
  plan_renews_at: string | null;
  memberships: { status: string; period_end: string; next_retry_at: string | null };
  payments: { billing_reason: string; status: string; amount: number }[];
};
const stateOf = async (user: string) =>
  (
    await rest<MemberState[]>(
      `members?select=membership_tier,plan_renews_at,memberships(status,period_end,next_retry_at),payments(billing_reason,status,amount,created_at)&payments.order=created_at&payments.billing_reason=not.is.null&user_id=eq.${user}`,
    )
  )[0]!;
const DAY = 86_400_000;

/** Opens the test checkout page and presses a button, as the member would. */
async function pressOnTestPage(gatewayUrl: string, action: 'pay' | 'decline', card?: 'alwaysPays' | 'declinesLater'): Promise<Response> {
  const url = viaHost(gatewayUrl);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('TEST CHECKOUT');
  if (card) {
    // A card-saving checkout (a membership) offers the two test cards.
    expect(html).toContain('>Pay with the card that always pays<');
    expect(html).toContain('>Pay with the card that declines later charges<');
  } else {
    expect(html).toMatch(/>Pay £\d+(\.\d\d)?</);
  }
  expect(html).toContain('>Decline<');
  const id = new URL(url).searchParams.get('id')!;
  return fetch(url, { method: 'POST', body: new URLSearchParams({ id, action, ...(card ? { card } : {}) }), redirect: 'manual' });
}

describe('local payment flow', () => {
  it('a payg member who used the trial books, pays on the test page and the booking is completed', async () => {
    const cls = await freeClass();
    const decision = await fetch(`${stack.url}/rest/v1/rpc/book_class`, {
      method: 'POST',
      headers: member(),
      body: JSON.stringify({ p_class_id: cls.id }),
    });
    expect(((await decision.json()) as { status: string }).status).toBe('payment_required');

    const res = await fn('create-class-checkout', { classId: cls.id });
    expect(res.status).toBe(200);
    const { url, reference } = (await res.json()) as { url: string; reference: string };
    expect(url.startsWith(`${stack.url}/.netlify/functions/test-checkout?id=`)).toBe(true);
    expect(await myBooking(cls.id)).toMatchObject({ payment_status: 'pending', type: 'payg' });
    expect(await spotsLeft(cls.id)).toBe(cls.spots_left - 1);

    const paid = await pressOnTestPage(url, 'pay');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${SITE}/payment/return?ref=${reference}`);
    expect(await myBooking(cls.id)).toMatchObject({ payment_status: 'completed' });

    const status = await fn('checkout-status', { reference });
    expect(await status.json()).toMatchObject({
      reference,
      kind: 'class',
      status: 'paid',
      amount: cls.price_payg,
      currency: 'GBP',
      needsRefund: false,
    });
  });

  it('a declined payment leaves no booking and frees the spot', async () => {
    const cls = await freeClass();
    const { url, reference } = (await (await fn('create-class-checkout', { classId: cls.id })).json()) as {
      url: string;
      reference: string;
    };
    expect(await spotsLeft(cls.id)).toBe(cls.spots_left - 1);

    const declined = await pressOnTestPage(url, 'decline');
    expect(declined.status).toBe(303);
    expect(await myBooking(cls.id)).toBeNull();
    expect(await spotsLeft(cls.id)).toBe(cls.spots_left);
    expect(await (await fn('checkout-status', { reference })).json()).toMatchObject({ status: 'failed' });
  });

  it('a member buys Standard: the card is saved, the first month charged with it, tier and renewal change', async () => {
    const res = await fn('create-checkout', { planSlug: 'standard', userId });
    expect(res.status).toBe(200);
    const { url, reference } = (await res.json()) as { url: string; reference: string };
    expect((await pressOnTestPage(url, 'pay', 'alwaysPays')).status).toBe(303);

    const [me] = await rest<{ membership_tier: string; plan_renews_at: string }[]>(
      `members?select=membership_tier,plan_renews_at&user_id=eq.${userId}`,
    );
    expect(me!.membership_tier).toBe('standard');
    // One calendar month (London): 28 to 31 days.
    const days = (new Date(me!.plan_renews_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27.9);
    expect(days).toBeLessThanOrEqual(31);
    expect(await (await fn('checkout-status', { reference })).json()).toMatchObject({
      kind: 'plan',
      status: 'paid',
      planName: 'Standard',
      amount: 100,
    });
    const [withMembership] = await rest<{ memberships: { status: string; renews: boolean } }[]>(
      `members?select=memberships(status,renews)&user_id=eq.${userId}`,
    );
    expect(withMembership!.memberships).toMatchObject({ status: 'active', renews: true });
  });

  it('a forged notification changes nothing', async () => {
    const res = await fetch(`${functionsUrl}/.netlify/functions/payment-webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: 'forged-checkout-id' }),
    });
    expect(res.status).toBe(200);
  });

  it('serves no test page when a SumUp key is configured', async () => {
    vi.stubEnv('SUMUP_API_KEY', 'sup_sk_configured');
    const res = await fetch(`${functionsUrl}/.netlify/functions/test-checkout?id=anything`);
    expect(res.status).toBe(404);
    vi.stubEnv('SUMUP_API_KEY', '');
  });
});

describe('membership lifecycle with the jobs (test provider, local stack)', () => {
  it('renews a month later with the card that always pays, once however often the jobs run', async () => {
    // payg@studio.test bought Standard above with the card that always pays.
    const before = await stateOf(userId);
    expect(before.memberships.status).toBe('active');
    const due = new Date(before.memberships.period_end);
    const first = await jobsAt(due);
    expect(first.find((r) => r.job === 'renewals')!.details.some((d) => d.endsWith(': paid'))).toBe(true);
    const after = await stateOf(userId);
    expect(after.membership_tier).toBe('standard');
    expect(after.payments.map((p) => `${p.billing_reason}:${p.status}`)).toEqual(['start:paid', 'renewal:paid']);
    expect(new Date(after.memberships.period_end).getTime() - due.getTime()).toBeGreaterThan(27 * DAY);
    const second = await jobsAt(due);
    expect(second.find((r) => r.job === 'renewals')!.did).toBe('nothing due');
    expect((await stateOf(userId)).payments).toHaveLength(2);
  });

  it('an active member replaces the card with nothing charged; a replayed notification saves it once', async () => {
    // payg@studio.test is on Standard, renewed above, with nothing due (decision 0104).
    const before = await stateOf(userId);
    const started = await fn('update-card', {});
    expect(started.status).toBe(200);
    const { url, reference } = (await started.json()) as { url: string; reference: string };
    expect(reference).toMatch(/^setup-/);
    expect(await (await fn('card-status', { reference })).json()).toEqual({ status: 'pending' });
    const page = await (await fetch(viaHost(url))).text();
    expect(page).toContain('is only authorised and given back at once');
    const paid = await pressOnTestPage(url, 'pay', 'alwaysPays');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${SITE}/membership?card=${reference}`);
    expect(await (await fn('card-status', { reference })).json()).toEqual({ status: 'saved' });
    // The provider notifies again: the card is saved once and nothing is charged.
    const id = new URL(viaHost(url)).searchParams.get('id')!;
    const replay = await fetch(`${functionsUrl}/.netlify/functions/payment-webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_type: 'CHECKOUT_STATUS_CHANGED', id }),
    });
    expect(replay.status).toBe(200);
    expect((await stateOf(userId)).payments).toEqual(before.payments);
    // Someone else's session does not see it.
    const other = await signIn('standard@studio.test');
    expect((await fn('card-status', { reference }, other.token)).status).toBe(404);
  });

  it('the card that declines later: past due a month later, a new card pays what is due at once', async () => {
    const buyer = await signIn('trial@studio.test');
    const { url } = (await (await fn('create-checkout', { planSlug: 'standard', userId: buyer.userId }, buyer.token)).json()) as {
      url: string;
    };
    expect((await pressOnTestPage(url, 'pay', 'declinesLater')).status).toBe(303);
    const bought = await stateOf(buyer.userId);
    expect(bought.membership_tier).toBe('standard');

    const due = new Date(bought.memberships.period_end);
    await jobsAt(due);
    const pastDue = await stateOf(buyer.userId);
    expect(pastDue.memberships.status).toBe('past_due');
    // Compared as instants: PostgreSQL drops trailing zeros of the fraction ('.12+00:00'), JSON Dates do not.
    expect(new Date(pastDue.memberships.next_retry_at!).getTime()).toBe(due.getTime() + DAY);
    expect(pastDue.membership_tier).toBe('standard');

    const update = await fn('update-card', {}, buyer.token);
    expect(update.status).toBe(200);
    const { url: updateUrl } = (await update.json()) as { url: string };
    expect((await pressOnTestPage(updateUrl, 'pay', 'alwaysPays')).status).toBe(303);
    const paid = await stateOf(buyer.userId);
    expect(paid.memberships.status).toBe('active');
    expect(paid.payments.map((p) => `${p.billing_reason}:${p.status}`)).toEqual(['start:paid', 'renewal:paid']);
  });

  it('the card that declines later: after the last retry (+7 days) the tier is payg', async () => {
    const buyer = await signIn('newpayg@studio.test');
    const { url } = (await (await fn('create-checkout', { planSlug: 'platinum', userId: buyer.userId }, buyer.token)).json()) as {
      url: string;
    };
    await pressOnTestPage(url, 'pay', 'declinesLater');
    const due = new Date((await stateOf(buyer.userId)).memberships.period_end);
    for (const days of [0, 1, 3]) {
      await jobsAt(new Date(due.getTime() + days * DAY));
      expect((await stateOf(buyer.userId)).membership_tier).toBe('premium');
    }
    await jobsAt(new Date(due.getTime() + 7 * DAY));
    const lapsed = await stateOf(buyer.userId);
    expect(lapsed.membership_tier).toBe('payg');
    expect(lapsed.memberships.status).toBe('lapsed');
  });

  it('an upgrade confirmed at a figure other than what it costs now charges nothing', async () => {
    const res = await fn('change-membership', { action: 'upgrade', planSlug: 'platinum', expectedAmount: 165 });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: 'amount_changed', message: expect.stringContaining('The upgrade now costs £65.00') });
    expect((await stateOf(userId)).membership_tier).toBe('standard');
  });

  it('upgrade Standard to Platinum Premium is charged now with the saved card', async () => {
    const res = await fn('change-membership', { action: 'upgrade', planSlug: 'platinum' });
    // The renewal just paid for a whole period not started yet: all £100 of it comes off £165.
    expect(await res.json()).toEqual({ outcome: 'paid', amount: 65 });
    expect((await stateOf(userId)).membership_tier).toBe('premium');
  });
});
