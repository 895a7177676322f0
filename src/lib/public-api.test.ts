import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { env } from './env';
import { publicRpc } from './public-api';

const url = `${env.restUrl}/rpc/class_schedule`;

// A visitor (no stored session, supabase-js not loaded) calls PostgREST with a plain fetch.
describe('publicRpc as a visitor', () => {
  it('posts the arguments with the anon key and returns the rows', async () => {
    let seen: { apikey: string | null; auth: string | null; body: unknown } | undefined;
    server.use(
      http.post(url, async ({ request }) => {
        seen = { apikey: request.headers.get('apikey'), auth: request.headers.get('authorization'), body: await request.json() };
        return HttpResponse.json([{ id: 'c1' }]);
      }),
    );
    await expect(publicRpc('class_schedule', { p_day: 'all', p_limit: 24, p_offset: 0 })).resolves.toEqual({
      data: [{ id: 'c1' }],
      error: null,
    });
    expect(seen).toEqual({
      apikey: env.supabaseAnonKey,
      auth: `Bearer ${env.supabaseAnonKey}`,
      body: { p_day: 'all', p_limit: 24, p_offset: 0 },
    });
  });

  it("returns PostgREST's refusal with its code and status, and no data", async () => {
    server.use(
      http.post(url, () => HttpResponse.json({ code: '22023', message: 'invalid day filter', details: null, hint: null }, { status: 400 })),
    );
    const { data, error } = await publicRpc('class_schedule', { p_day: 'someday' });
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '22023', message: 'invalid day filter', details: null, hint: null, status: 400 });
  });

  it('says what the gateway said when the answer is not JSON', async () => {
    server.use(http.post(url, () => new HttpResponse('upstream down', { status: 502, statusText: 'Bad Gateway' })));
    const { data, error } = await publicRpc('class_schedule', {});
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ message: 'Bad Gateway', status: 502, code: undefined });
  });
});
