/**
 * msw fixtures for the admin screens, built on the shared Supabase mocks: an admin (or plain
 * member) session, and a `members` handler that answers the AuthProvider's lookup by user_id
 * and the admin check by email with that member, and the admin list with `list`.
 */
import { http, HttpResponse } from 'msw';
import { vi } from 'vitest';
import type { Member } from '@/lib/supabase';
import { pauseHandlers } from '@/testing/membership-mocks';
import { AUTH_URL, REST_URL, rowsResponse, rpc, signInAs } from '@/testing/supabase-mocks';

// The admin screens load lazily behind the guard's round trip; on a busy shared machine 5 s per
// test is too tight, so these tests allow more (findBy* waits 5 s everywhere: setup-tests.ts).
vi.setConfig({ testTimeout: 30_000 });

export function membersHandler(self: Member | null, list: () => unknown[] = () => []) {
  return http.get(`${REST_URL}/members`, ({ request }) => {
    const url = new URL(request.url);
    if (url.searchParams.has('user_id') || url.searchParams.has('email')) return rowsResponse(request, self ? [self] : []);
    return pagedResponse(url, list() as Record<string, unknown>[]);
  });
}

/** Signs in admin@studio.test (an admin member) before render; returns the handlers the guard needs. */
export function signInAsAdmin(list: () => unknown[] = () => []) {
  const signedIn = signInAs({ email: 'admin@studio.test', name: 'Ada Admin', is_admin: true, membership_tier: 'premium' });
  // Nothing owed by charge-backs unless a test says so (Bookings Management's "Owed to the studio").
  return {
    ...signedIn,
    handlers: [membersHandler(signedIn.member, list), ...pauseHandlers(), rpc('admin_direct_debit_chargebacks', () => [])],
  };
}

/** window.confirm answered yes (or no); jsdom has no dialog and would log an error. */
export function answerConfirm(answer: boolean) {
  // The spy outlives a test (setup does not restore mocks), so start each test's count at zero.
  return vi.spyOn(window, 'confirm').mockClear().mockReturnValue(answer);
}

/** Records every request msw sees, so a test can assert how many calls a screen made. */
export function recordRequests(server: {
  events: { on: (e: 'request:start', fn: (a: { request: Request }) => void) => void; removeAllListeners: () => void };
}) {
  const seen: { method: string; url: URL }[] = [];
  server.events.on('request:start', ({ request }) => seen.push({ method: request.method, url: new URL(request.url) }));
  return seen;
}

export const logoutHandler = http.post(`${AUTH_URL}/logout`, () => new HttpResponse(null, { status: 204 }));

/**
 * Answers a paged list request like PostgREST: the `or=(col.ilike."*term*",...)` search the admin
 * lists send (case-insensitive contains), then offset/limit, with Content-Range carrying the count
 * of every matching row (what count=exact returns).
 */
export function pagedResponse(url: URL, rows: Record<string, unknown>[]) {
  const or = url.searchParams.get('or');
  const terms = or
    ? [...or.slice(1, -1).matchAll(/([\w.]+)\.ilike\."\*((?:[^"\\]|\\.)*)\*"/g)].map(([, column, raw]) => ({
        column: column!,
        needle: raw!.replace(/\\(.)/g, '$1').replace(/\\(.)/g, '$1').toLowerCase(),
      }))
    : [];
  const matching = terms.length
    ? rows.filter((row) =>
        terms.some(({ column, needle }) => ((row[column] as string | null | undefined) ?? '').toLowerCase().includes(needle)),
      )
    : rows;
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const limit = Number(url.searchParams.get('limit') ?? matching.length);
  const page = matching.slice(offset, offset + limit);
  const range = page.length ? `${offset}-${offset + page.length - 1}` : '*';
  return HttpResponse.json(page, { headers: { 'content-range': `${range}/${matching.length}` } });
}
