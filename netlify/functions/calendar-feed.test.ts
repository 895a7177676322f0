import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../../supabase/local/stack.ts';
import calendarFeed from './calendar-feed';

/*
 * The feed end to end on the local stack (in memory, seeded): the member creates their secret with
 * rotate_calendar_token through the REST API, the function serves it, and rotating or revoking it
 * turns the old URL into a 404.
 */
const SITE = 'http://127.0.0.1:5998';
let stack: Stack;
let token: string;

async function restRpc<T>(fn: string, accessToken: string, args: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${stack.url}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  if (!res.ok) throw new Error(`${fn}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const get = (query: string, method = 'GET') => calendarFeed(new Request(`${SITE}/.netlify/functions/calendar-feed${query}`, { method }));

beforeAll(async () => {
  stack = await startStack({ port: 0, dataDir: 'memory', seed: true, quiet: true, siteUrl: SITE });
  vi.stubEnv('SUPABASE_URL', stack.url);
  vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', stack.serviceRoleKey);
  vi.stubEnv('SITE_URL', SITE);
  const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'premium@studio.test', password: 'studio123' }),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  vi.unstubAllEnvs();
});

describe('calendar-feed', () => {
  it('serves the member upcoming bookings as a calendar a parser reads', async () => {
    // Book one more group class for certain, so the feed has a known event (a One-to-One needs a credit or a payment).
    const classes = (await (
      await fetch(
        `${stack.url}/rest/v1/classes?select=id,name,start_time&type=neq.One-to-One&start_time=gt.${new Date(Date.now() + 86_400_000).toISOString()}&order=start_time&limit=20`,
        {
          headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` },
        },
      )
    ).json()) as { id: string; name: string; start_time: string }[];
    const bookable = classes.find(Boolean)!;
    await restRpc('book_class', token, { p_class_id: bookable.id }).catch(() => undefined); // already booked is fine

    const { calendar_token } = await restRpc<{ calendar_token: string }>('rotate_calendar_token', token);
    const res = await get(`?token=${calendar_token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const ics = await res.text();
    const calendar = new ICAL.Component(ICAL.parse(ics));
    expect(calendar.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid')).toBe('Europe/London');
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.length).toBeGreaterThan(0);
    const mine = events.find((e) => e.summary === `${bookable.name} (Finer Fitness)`);
    expect(mine).toBeDefined();
    expect(mine!.location).toBe('Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom');
    expect(mine!.description).toContain(`${SITE}/mybookings`);
    expect(events.every((e) => e.uid.startsWith('booking-'))).toBe(true);

    const head = await get(`?token=${calendar_token}`, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers 404 for a rotated, revoked, unknown or malformed token', async () => {
    const first = (await restRpc<{ calendar_token: string }>('rotate_calendar_token', token)).calendar_token;
    const second = (await restRpc<{ calendar_token: string }>('rotate_calendar_token', token)).calendar_token;
    expect((await get(`?token=${first}`)).status).toBe(404);
    expect((await get(`?token=${second}`)).status).toBe(200);
    await restRpc('revoke_calendar_token', token);
    const revoked = await get(`?token=${second}`);
    expect(revoked.status).toBe(404);
    expect(await revoked.text()).toBe('Calendar not found');
    expect((await get(`?token=${'A'.repeat(43)}`)).status).toBe(404);
    expect((await get('?token=short')).status).toBe(404);
    expect((await get('')).status).toBe(404);
  });

  it('accepts only GET and HEAD', async () => {
    expect((await get('?token=x', 'POST')).status).toBe(405);
  });
});
