import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { signInAs } from '@/testing/supabase-mocks';
import { startPlanCheckout } from './start-plan-checkout';

function stubBrowser() {
  const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return { alert, assign };
}

describe('startPlanCheckout', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('asks to sign in first when there is no session, without calling the function', async () => {
    const { alert, assign } = stubBrowser();
    let called = false;
    server.use(http.post('*/.netlify/functions/create-checkout', () => ((called = true), HttpResponse.json({ url: 'x' }))));
    await expect(startPlanCheckout('standard')).resolves.toBe(false);
    expect(alert).toHaveBeenCalledWith('Please sign in first.');
    expect(called).toBe(false);
    expect(assign).not.toHaveBeenCalled();
  });

  it('posts the plan and user with the access token and goes to the returned url', async () => {
    const { session } = signInAs({ membership_tier: 'payg' });
    const { alert, assign } = stubBrowser();
    const seen: { body: unknown; auth: string | null; type: string | null }[] = [];
    server.use(
      http.post('*/.netlify/functions/create-checkout', async ({ request }) => {
        seen.push({ body: await request.json(), auth: request.headers.get('authorization'), type: request.headers.get('content-type') });
        return HttpResponse.json({ url: 'https://pay.example/checkout/123' });
      }),
    );
    await expect(startPlanCheckout('platinum')).resolves.toBe(true);
    expect(seen).toEqual([
      { body: { planSlug: 'platinum', userId: session.user.id }, auth: `Bearer ${session.access_token}`, type: 'application/json' },
    ]);
    expect(assign).toHaveBeenCalledWith('https://pay.example/checkout/123');
    expect(alert).not.toHaveBeenCalled();
  });

  it.each([
    ['a server error', () => HttpResponse.json({ error: 'nope' }, { status: 500 })],
    ['a missing function (404)', () => new HttpResponse('Not found', { status: 404 })],
    ['an answer without a url', () => HttpResponse.json({})],
    ['a network failure', () => HttpResponse.error()],
  ])('alerts that checkout could not start on %s', async (_case, answer) => {
    signInAs({ membership_tier: 'standard' });
    const { alert, assign } = stubBrowser();
    server.use(http.post('*/.netlify/functions/create-checkout', answer));
    await expect(startPlanCheckout('platinum')).resolves.toBe(false);
    expect(alert).toHaveBeenCalledWith('Could not start checkout, please try again.');
    expect(assign).not.toHaveBeenCalled();
  });
});
