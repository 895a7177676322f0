import { http, HttpResponse, type HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

/**
 * A scripted Supabase at the network boundary for the functions' unit tests: GoTrue's
 * GET /auth/v1/user, PostgREST RPCs and the members lookup. Records every call so tests can
 * assert exactly what a function asked the database to do. (The SQL behind the RPCs is tested
 * against the real engine in supabase-payments.test.ts.)
 */
export const SUPABASE_URL = 'https://project-ref.supabase.test';
export const SERVICE_KEY = 'service-role-key-for-tests';

export type RpcCall = { fn: string; args: Record<string, unknown>; authorization: string | null };
type RpcAnswer = { status?: number; body: unknown };

export class FakeSupabase {
  readonly rpcCalls: RpcCall[] = [];
  /** access token → auth user id */
  readonly sessions = new Map<string, string>();
  /** auth user id → member row */
  readonly members = new Map<string, { id: string; membership_tier: string; has_used_trial: boolean }>();
  private readonly rpcAnswers = new Map<string, RpcAnswer>();
  /** Rows answered by GET /rest/v1/payments (already filtered by the test). */
  paymentRows: Record<string, unknown>[] = [];

  constructor(private readonly base: string = SUPABASE_URL) {}

  answerRpc(fn: string, body: unknown, status = 200): void {
    this.rpcAnswers.set(fn, { body, status });
  }

  calls(fn: string): RpcCall[] {
    return this.rpcCalls.filter((c) => c.fn === fn);
  }

  handlers(): HttpHandler[] {
    return [
      http.get(`${this.base}/auth/v1/user`, ({ request }) => {
        const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
        const userId = this.sessions.get(token);
        if (request.headers.get('apikey') !== SERVICE_KEY || !userId) {
          return HttpResponse.json({ code: 403, error_code: 'bad_jwt', msg: 'invalid JWT' }, { status: 403 });
        }
        return HttpResponse.json({ id: userId, aud: 'authenticated', role: 'authenticated', email: `${userId}@studio.test` });
      }),
      http.get(`${this.base}/rest/v1/members`, ({ request }) => {
        const userId = new URL(request.url).searchParams.get('user_id')?.replace(/^eq\./, '') ?? '';
        const row = this.members.get(userId);
        return HttpResponse.json(row ? [row] : []);
      }),
      http.get(`${this.base}/rest/v1/payments`, () => HttpResponse.json(this.paymentRows)),
      http.post(`${this.base}/rest/v1/rpc/:fn`, async ({ request, params }) => {
        const fn = String(params.fn);
        this.rpcCalls.push({
          fn,
          args: (await request.json()) as Record<string, unknown>,
          authorization: request.headers.get('authorization'),
        });
        const answer = this.rpcAnswers.get(fn) ?? { body: null, status: 200 };
        return HttpResponse.json(answer.body as Record<string, unknown> | null, { status: answer.status ?? 200 });
      }),
    ];
  }
}

export function rpcError(hint: string, message: string, code = 'P0001') {
  return { code, message, details: null, hint };
}

/** The site every fake-backed test uses as SITE_URL. */
export const FAKE_SITE_URL = 'https://studio.example';

/**
 * A FakeSupabase behind msw for this test file (unhandled requests fail), reset after each test
 * along with stubbed env vars. Call `stubEnv()` in a test for the functions' Supabase settings.
 */
export function setUpFakeSupabase() {
  const fake = new FakeSupabase();
  const server = setupServer(...fake.handlers());
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    fake.rpcCalls.length = 0;
    vi.unstubAllEnvs();
  });
  afterAll(() => server.close());
  const stubEnv = () => {
    vi.stubEnv('SUPABASE_URL', SUPABASE_URL);
    vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', SERVICE_KEY);
    vi.stubEnv('SITE_URL', FAKE_SITE_URL);
  };
  // `server` takes more handlers for a test (server.use): another service the function calls.
  return { fake, stubEnv, server };
}
