import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../../supabase/local/stack.ts';
import createGuestCheckout from '../functions/create-guest-checkout';
import paymentWebhook from '../functions/payment-webhook';
import testCheckout from '../functions/test-checkout';

/*
 * Paying for a guest, the whole local flow over HTTP as local-checkout-flow.test.ts
 * runs it: the local stack (in memory, seeded) for auth and the
 * database; with no SUMUP_API_KEY the functions use the test provider, whose Pay / Decline page
 * notifies the webhook over HTTP, which verifies through the provider interface.
 *
 * The functions are served here by a minimal host rather than the gateway's FunctionsHost: that
 * one re-imports `<name>.ts?v=<mtime>`, which Vite's transform (under vitest) does not treat as
 * TypeScript. Same Request in, same Response out.
 */
const SITE = 'http://127.0.0.1:5999';
const HANDLERS: Record<string, (req: Request) => Promise<Response>> = {
  'create-guest-checkout': createGuestCheckout,
  'payment-webhook': paymentWebhook,
  'test-checkout': testCheckout,
};
let stack: Stack;
let functionsHost: Server;
let functionsUrl: string;
let token: string;

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
    body: JSON.stringify({ email: 'standard@studio.test', password: 'studio123' }),
  });
  const session = (await res.json()) as { access_token: string };
  token = session.access_token;
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
async function rpc<T>(name: string, body: unknown): Promise<T> {
  const res = await fetch(`${stack.url}/rest/v1/rpc/${name}`, { method: 'POST', headers: member(), body: JSON.stringify(body) });
  expect(res.status, `${name}: ${await res.clone().text()}`).toBe(200);
  return (await res.json()) as T;
}
async function fn(name: string, body: unknown): Promise<Response> {
  return fetch(`${functionsUrl}/.netlify/functions/${name}`, { method: 'POST', headers: member(), body: JSON.stringify(body) });
}

/** A group class of its own with a pay-as-you-go price (the stack is shared with nothing, but seed classes may be full). */
async function guestClass(): Promise<string> {
  const res = await fetch(`${stack.url}/rest/v1/classes?select=id`, {
    method: 'POST',
    headers: { ...service(), 'content-type': 'application/json', prefer: 'return=representation' },
    body: JSON.stringify({
      name: 'Guest Flow Spin',
      trainer: 'Coach Flow',
      type: 'Group',
      capacity: 6,
      price_payg: 14,
      start_time: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }[])[0]!.id;
}

const spotsLeft = async (classId: string) =>
  (await rest<{ spots_left: number }[]>(`classes?select=spots_left&id=eq.${classId}`))[0]!.spots_left;
const guestsOn = async (classId: string) =>
  rest<{ guest_name: string; payment_status: string }[]>(`guest_places?select=guest_name,payment_status&class_id=eq.${classId}`);
const invites = async (email: string) =>
  rest<{ kind: string }[]>(`notification_outbox?select=kind&to_email=eq.${encodeURIComponent(email)}`);

/** Opens the test checkout page and presses Pay or Decline, as the member would. */
async function pressOnTestPage(gatewayUrl: string, action: 'pay' | 'decline'): Promise<Response> {
  const url = viaHost(gatewayUrl);
  const html = await (await fetch(url)).text();
  expect(html).toContain('>Pay £14.00<');
  const id = new URL(url).searchParams.get('id')!;
  return fetch(url, { method: 'POST', body: new URLSearchParams({ id, action }), redirect: 'manual' });
}

describe('paying for a guest, local flow', () => {
  it("holds the guest's place, pays on the test page, the webhook confirms it once and the guest is emailed", async () => {
    const classId = await guestClass();
    const { booking_id: bookingId } = await rpc<{ booking_id: string }>('book_class', { p_class_id: classId });

    const res = await fn('create-guest-checkout', { bookingId, name: 'Flo Flow', email: 'flo.flow@example.test' });
    expect(res.status, await res.clone().text()).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(await guestsOn(classId)).toEqual([{ guest_name: 'Flo Flow', payment_status: 'pending' }]);
    expect(await spotsLeft(classId)).toBe(4);

    expect((await pressOnTestPage(url, 'pay')).status).toBe(303);
    expect(await guestsOn(classId)).toEqual([{ guest_name: 'Flo Flow', payment_status: 'completed' }]);
    expect(await invites('flo.flow@example.test')).toEqual([{ kind: 'guest_invited' }]);

    // The provider sends the same notification again: nothing changes.
    const id = new URL(url).searchParams.get('id')!;
    const replay = await fetch(`${functionsUrl}/.netlify/functions/payment-webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_type: 'CHECKOUT_STATUS_CHANGED', id }),
    });
    expect(replay.status).toBe(200);
    expect(await guestsOn(classId)).toEqual([{ guest_name: 'Flo Flow', payment_status: 'completed' }]);
    expect(await invites('flo.flow@example.test')).toEqual([{ kind: 'guest_invited' }]);
    expect(await spotsLeft(classId)).toBe(4);
  });

  it('a declined card frees the guest place at once', async () => {
    const classId = await guestClass();
    const { booking_id: bookingId } = await rpc<{ booking_id: string }>('book_class', { p_class_id: classId });
    const { url } = (await (
      await fn('create-guest-checkout', { bookingId, name: 'Dee Decline', email: 'dee.flow@example.test' })
    ).json()) as {
      url: string;
    };
    expect((await pressOnTestPage(url, 'decline')).status).toBe(303);
    expect(await guestsOn(classId)).toEqual([]);
    expect(await spotsLeft(classId)).toBe(5);
  });
});
