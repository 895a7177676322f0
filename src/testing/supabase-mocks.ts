/**
 * Generic msw helpers that speak the Supabase HTTP APIs the way supabase-js calls them (the
 * documented PostgREST, GoTrue and Realtime protocols): a signed-in session seeded into storage,
 * PostgREST rows and errors, GoTrue token and error responses, and a realtime websocket that
 * accepts channel joins and can push postgres_changes to the page.
 *
 * Usage in a screen test:
 *   const member = makeMember({ membership_tier: 'standard' });
 *   seedSession(makeSession({ userId: member.user_id!, email: member.email }));
 *   server.use(memberHandler(member), realtimeHandler().handler, restGet('classes', () => [makeClass()]));
 */
import { http, HttpResponse, ws, type JsonBodyType } from 'msw';
import { env } from '@/lib/env';
import type { ClassRow, Member } from '@/lib/supabase';

/** The local stack's URL, which vite.config.ts inlines as VITE_SUPABASE_URL in tests. */
export const SUPABASE_URL = env.supabaseUrl;
/** PostgREST as the app reaches it: the site's own origin (jsdom's), proxied in the real app (decision 0060). */
export const REST_URL = env.restUrl;
/** PostgREST at the project's address: only Contact Us goes there. */
export const DIRECT_REST_URL = env.directRestUrl;
export const AUTH_URL = `${SUPABASE_URL}/auth/v1`;
/** supabase-js's default storage key: `sb-<first label of the host>-auth-token`. */
export const AUTH_STORAGE_KEY = `sb-${new URL(SUPABASE_URL).hostname.split('.')[0]}-auth-token`;

let counter = 0;
/** A deterministic, valid-looking uuid for fixtures. */
export function fixtureId(prefix = 'aaaaaaaa'): string {
  counter += 1;
  return `${prefix}-0000-4000-8000-${String(counter).padStart(12, '0')}`;
}

function base64Url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** An unsigned JWT with the claims GoTrue puts in an access token (nothing in the browser verifies it). */
export function fakeJwt(claims: Record<string, unknown>): string {
  return `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url(claims)}.fake-signature`;
}

export type FakeUser = {
  id: string;
  aud: 'authenticated';
  role: 'authenticated';
  email: string;
  email_confirmed_at: string;
  user_metadata: Record<string, unknown>;
  app_metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
};

export function makeUser(options: { id?: string; email?: string; metadata?: Record<string, unknown> } = {}): FakeUser {
  const id = options.id ?? fixtureId('5f0c1a2b');
  const email = options.email ?? 'member@studio.test';
  return {
    id,
    aud: 'authenticated',
    role: 'authenticated',
    email,
    email_confirmed_at: '2025-01-01T00:00:00Z',
    user_metadata: { email, email_verified: true, sub: id, ...options.metadata },
    app_metadata: { provider: 'email', providers: ['email'] },
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
  };
}

/** A GoTrue session (the token endpoint's body, which is also what supabase-js stores). */
export function makeSession(user: FakeUser = makeUser()) {
  const now = Math.floor(Date.now() / 1000);
  return {
    access_token: fakeJwt({ aud: 'authenticated', role: 'authenticated', sub: user.id, email: user.email, exp: now + 3600, iat: now }),
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: now + 3600,
    refresh_token: `refresh-${user.id}`,
    user,
  };
}
export type FakeSession = ReturnType<typeof makeSession>;

/** Signs the browser in before the app renders, as if supabase-js had stored a session earlier. */
export function seedSession(session: FakeSession): void {
  localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(session));
}

export function makeMember(overrides: Partial<Member> = {}): Member {
  const email = overrides.email ?? 'member@studio.test';
  return {
    id: fixtureId('bbbbbbbb'),
    user_id: fixtureId('5f0c1a2b'),
    email,
    name: 'Sam Member',
    phone: null,
    profile_image_url: null,
    awaiting_confirmation: false,
    membership_tier: 'standard',
    has_used_trial: true,
    trial_expires_at: null,
    plan_renews_at: null,
    is_admin: false,
    status: 'active',
    created_at: '2025-01-01T00:00:00Z',
    calendar_token: null,
    date_of_birth: null,
    emergency_contact_name: null,
    emergency_contact_phone: null,
    ...overrides,
  };
}

export function makeClass(overrides: Partial<ClassRow> = {}): ClassRow {
  const capacity = overrides.capacity ?? 12;
  const spotsLeft = overrides.spots_left ?? capacity;
  return {
    id: fixtureId('cccccccc'),
    name: 'Breakfast Club',
    description: 'A 45 minute full-body session.',
    duration: 45,
    start_time: '2030-01-07T06:00:00+00:00',
    trainer: 'Coach Alex',
    trainer_id: fixtureId('77777777'),
    type: 'Group',
    capacity,
    current_bookings: capacity - spotsLeft,
    spots_left: spotsLeft,
    is_premium: false,
    unlock_for_standard: '3 days',
    price_payg: 10,
    checkout_url: null,
    created_at: '2025-01-01T00:00:00Z',
    waitlist_closes_before: '02:00:00',
    late_cancel_window: '12:00:00',
    min_age: null,
    max_age: null,
    studio_changed_at: null,
    template_slot: null,
    template_start: null,
    meeting_point_id: null,
    ...overrides,
  };
}

/** A member together with the signed-in session of their auth user, seeded into storage. */
export function signInAs(overrides: Partial<Member> = {}) {
  const member = makeMember(overrides);
  const user = makeUser({ id: member.user_id ?? undefined, email: member.email, metadata: { full_name: member.name } });
  const session = makeSession(user);
  seedSession(session);
  return { member, user, session };
}

/** PostgREST's answer for rows: an object when supabase-js asked for one (`.single()`), else the array. */
export function rowsResponse(request: Request, rows: JsonBodyType[], init: ResponseInit = {}) {
  const wantsObject = (request.headers.get('accept') ?? '').includes('application/vnd.pgrst.object');
  if (!wantsObject) return HttpResponse.json(rows, init);
  if (rows.length === 1) return HttpResponse.json(rows[0], init);
  return postgrestError(
    {
      code: 'PGRST116',
      message: 'JSON object requested, multiple (or no) rows returned',
      details: `The result contains ${rows.length} rows`,
      hint: null,
    },
    406,
  );
}

export type PostgrestErrorBody = { code: string; message: string; details?: string | null; hint?: string | null };

/** A PostgREST error body `{ code, message, details, hint }` (an RPC's RAISE carries its hint here). */
export function postgrestError(body: PostgrestErrorBody, status = 400) {
  return HttpResponse.json({ details: null, hint: null, ...body }, { status });
}

type RestResolver = (info: { request: Request; url: URL }) => JsonBodyType[] | Response | Promise<JsonBodyType[] | Response>;

/** GET /rest/v1/<table>: the resolver returns rows (or a full Response, e.g. an error). */
export function restGet(table: string, resolve: RestResolver) {
  return http.get(`${REST_URL}/${table}`, async ({ request }) => {
    const result = await resolve({ request, url: new URL(request.url) });
    return result instanceof Response ? result : rowsResponse(request, result);
  });
}

type RpcResolver = (info: {
  request: Request;
  args: Record<string, unknown>;
}) => JsonBodyType | Response | Promise<JsonBodyType | Response>;

/** POST /rest/v1/rpc/<name>: the resolver gets the JSON arguments and returns the result (or a Response). */
export function rpc(name: string, resolve: RpcResolver, { direct = false }: { direct?: boolean } = {}) {
  return http.post(`${direct ? DIRECT_REST_URL : REST_URL}/rpc/${name}`, async ({ request }) => {
    const text = await request.clone().text();
    const args = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    const result = await resolve({ request, args });
    return result instanceof Response ? result : HttpResponse.json(result);
  });
}

/** The member row the AuthProvider loads for the signed-in user (`members?user_id=eq.<id>`). */
export function memberHandler(member: Member | null) {
  return restGet('members', () => (member ? [member] : []));
}

/** GoTrue's error body and status (GoTrue answers `{ code, message }` with X-Supabase-Api-Version). */
export function authError(message: string, status = 400, code?: string) {
  return HttpResponse.json({ code, message }, { status, headers: { 'x-supabase-api-version': '2024-01-01' } });
}

/** POST /auth/v1/token?grant_type=password answering with a session, or with the resolver's Response. */
export function passwordSignInHandler(resolve: (body: { email: string; password: string }) => FakeSession | Response) {
  return http.post(`${AUTH_URL}/token`, async ({ request }) => {
    const body = (await request.json()) as { email: string; password: string };
    const result = resolve(body);
    return result instanceof Response ? result : HttpResponse.json(result, { headers: { 'x-supabase-api-version': '2024-01-01' } });
  });
}

/** POST /auth/v1/logout. */
export const logoutHandler = http.post(`${AUTH_URL}/logout`, () => new HttpResponse(null, { status: 204 }));

type Frame = [string | null, string | null, string, string, unknown];

/**
 * The realtime websocket (/realtime/v1/websocket, protocol 2.0.0 array frames): accepts the
 * connection (so an unhandled socket never fails a test), acknowledges joins, heartbeats, token
 * updates and leaves, and can push a postgres_changes event to every joined channel.
 * Caveat (measured): under jsdom + msw 2.15 supabase-js's phoenix socket never sees the mocked
 * socket open, so no join frame arrives and `pushUpdate` reaches nobody. To test live updates,
 * vi.mock the screen's subscription module instead (see schedule-page.test.tsx).
 */
export function realtimeHandler() {
  const link = ws.link(`${SUPABASE_URL.replace(/^http/, 'ws')}/realtime/v1/websocket`);
  const joined: { send: (frame: Frame) => void; topic: string; joinRef: string; ids: number[] }[] = [];
  let nextId = 1000;
  const handler = link.addEventListener('connection', ({ client }) => {
    const send = (frame: Frame) => client.send(JSON.stringify(frame));
    client.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
      const [joinRef, ref, topic, kind, payload] = JSON.parse(event.data) as Frame;
      if (kind === 'phx_join') {
        const changes = ((payload as { config?: { postgres_changes?: object[] } }).config?.postgres_changes ?? []).map((c) => ({
          ...c,
          id: nextId++,
        }));
        joined.push({ send, topic, joinRef: joinRef ?? '', ids: changes.map((c) => c.id) });
        send([joinRef, ref, topic, 'phx_reply', { status: 'ok', response: { postgres_changes: changes } }]);
        send([
          null,
          null,
          topic,
          'system',
          { channel: topic.replace(/^realtime:/, ''), extension: 'postgres_changes', message: 'Subscribed to PostgreSQL', status: 'ok' },
        ]);
        return;
      }
      if (kind === 'phx_leave') {
        const index = joined.findIndex((j) => j.topic === topic && j.joinRef === joinRef);
        if (index >= 0) joined.splice(index, 1);
      }
      send([joinRef, ref, topic, 'phx_reply', { status: 'ok', response: {} }]);
    });
  });
  return {
    handler,
    /** How many channels are joined right now (0 after the page unsubscribed). */
    joinedCount: () => joined.length,
    /** Pushes an UPDATE of `table` with the new row to every joined channel. */
    pushUpdate(table: string, record: Record<string, unknown>, old: Record<string, unknown> = {}) {
      for (const j of joined) {
        j.send([
          null,
          null,
          j.topic,
          'postgres_changes',
          {
            ids: j.ids,
            data: {
              schema: 'public',
              table,
              commit_timestamp: new Date().toISOString(),
              eventType: 'UPDATE',
              type: 'UPDATE',
              record,
              old_record: old,
              columns: [],
              errors: null,
            },
          },
        ]);
      }
    },
  };
}

/**
 * What Edit Profile's preferences cards read (decision 0091): the member's marketing consent, the
 * preferences grid's cells (my_notification_preferences rows) and the mobile number for texts.
 */
export function preferencesHandlers({
  consent = null,
  grid = [],
  sms = null,
}: {
  consent?: boolean | null;
  grid?: JsonBodyType[];
  sms?: { phone: string; stopped_at: string | null } | null;
} = {}) {
  return [
    restGet('marketing_consents', () => (consent === null ? [] : [{ granted: consent }])),
    rpc('my_notification_preferences', () => grid),
    restGet('sms_numbers', () => (sms ? [sms] : [])),
  ];
}
