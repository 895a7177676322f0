import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { signInAs } from '@/testing/supabase-mocks';
import { callFunction, FunctionError, NotSignedInError } from './functions-client';

const DELETE_MEMBER = '*/.netlify/functions/delete-member';

describe('callFunction', () => {
  it('sends nothing without a session, refusing as the function would', async () => {
    let called = false;
    server.use(http.post(DELETE_MEMBER, () => ((called = true), HttpResponse.json({}))));
    const refusal = callFunction('delete-member', { memberId: 'm1' });
    await expect(refusal).rejects.toBeInstanceOf(NotSignedInError);
    await expect(refusal).rejects.toMatchObject({ status: 401, code: 'not_authenticated', serverMessage: 'Please sign in first.' });
    expect(called).toBe(false);
  });

  it('posts the body as JSON with the session token and resolves to the answer', async () => {
    const { session } = signInAs();
    const seen: { body: unknown; auth: string | null; type: string | null }[] = [];
    server.use(
      http.post(DELETE_MEMBER, async ({ request }) => {
        seen.push({ body: await request.json(), auth: request.headers.get('authorization'), type: request.headers.get('content-type') });
        return HttpResponse.json({ memberId: 'm1', refundsOwed: 2 });
      }),
    );
    await expect(callFunction('delete-member', { memberId: 'm1' })).resolves.toEqual({ memberId: 'm1', refundsOwed: 2 });
    expect(seen).toEqual([{ body: { memberId: 'm1' }, auth: `Bearer ${session.access_token}`, type: 'application/json' }]);
  });

  it("throws a refusal with the server's code and message", async () => {
    signInAs();
    server.use(http.post(DELETE_MEMBER, () => HttpResponse.json({ error: 'not_admin', message: 'Access denied' }, { status: 403 })));
    const refusal = callFunction('delete-member', { memberId: 'm1' });
    await expect(refusal).rejects.toBeInstanceOf(FunctionError);
    await expect(refusal).rejects.toMatchObject({
      fn: 'delete-member',
      status: 403,
      code: 'not_admin',
      message: 'Access denied',
      serverMessage: 'Access denied',
    });
  });

  it('says which function answered what when the answer carries no message', async () => {
    signInAs();
    server.use(http.post(DELETE_MEMBER, () => new HttpResponse('Not Found', { status: 404 })));
    await expect(callFunction('delete-member', { memberId: 'm1' })).rejects.toMatchObject({
      status: 404,
      code: 'unknown',
      message: 'delete-member answered 404',
      serverMessage: null,
    });
  });
});
