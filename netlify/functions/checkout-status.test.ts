import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSupabase, SERVICE_KEY, SUPABASE_URL } from '../tests/fake-supabase';
import checkoutStatus from './checkout-status';

const server = setupServer();
let supabase: FakeSupabase;

// The browser's public key, as an attacker would send it in place of a session (decision 0016).
const ANON_KEY = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiJ9.signature';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  vi.stubEnv('SUPABASE_URL', SUPABASE_URL);
  vi.stubEnv('SUPABASE_SERVICE_ROLE_KEY', SERVICE_KEY);
  vi.stubEnv('SITE_URL', 'https://studio.example');
  supabase = new FakeSupabase();
  server.use(...supabase.handlers());
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const ask = (authorization: string | null) =>
  checkoutStatus(
    new Request('https://studio.example/.netlify/functions/checkout-status', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ reference: 'plan-6c1f3e9a-2b7d-4c59-9a43-0f1e2d3c4b5a' }),
    }),
  );

describe('checkout-status', () => {
  it.each([
    ['the anon key used as a session', `Bearer ${ANON_KEY}`],
    ['a token nobody issued', 'Bearer forged-token'],
    ['no session', null],
  ])('answers 401 to %s, reading nothing', async (_what, authorization) => {
    const res = await ask(authorization);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'not_authenticated' });
  });
});
