import { describe, expect, it, vi } from 'vitest';
import { setUpFakeSupabase } from '../tests/fake-supabase';
import cardStatus from './card-status';

// card-status (decision 0104): the caller's own card-saving checkout with nothing due, as My
// Membership asks after it. The SQL behind card_setup_state is tested in card-saved-ahead.test.ts;
// asking the provider while pending runs end to end in local-checkout-flow.test.ts.

const { fake, stubEnv } = setUpFakeSupabase();
const TOKEN = 'member-session-token';

const ask = (body: unknown, authorization: string | null = `Bearer ${TOKEN}`) =>
  cardStatus(
    new Request('https://studio.example/.netlify/functions/card-status', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(body),
    }),
  );

function signedIn() {
  stubEnv();
  vi.stubEnv('SUMUP_API_KEY', '');
  fake.sessions.set(TOKEN, 'user-1');
  fake.members.set('user-1', { id: 'member-1', membership_tier: 'standard', has_used_trial: true });
}

describe('card-status', () => {
  it('answers saved for the caller’s own saved card, asking for it by the caller’s member id', async () => {
    signedIn();
    fake.answerRpc('card_setup_state', [{ status: 'paid', provider_checkout_id: 'chk-1' }]);
    const res = await ask({ reference: 'setup-1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'saved' });
    expect(fake.calls('card_setup_state').map((c) => c.args)).toEqual([{ p_setup_reference: 'setup-1', p_member_id: 'member-1' }]);
  });

  it('answers failed for a declined or expired card, and 404 for a reference that is not the caller’s', async () => {
    signedIn();
    fake.answerRpc('card_setup_state', [{ status: 'expired', provider_checkout_id: null }]);
    expect(await (await ask({ reference: 'setup-2' })).json()).toEqual({ status: 'failed' });
    fake.answerRpc('card_setup_state', []);
    const res = await ask({ reference: 'setup-3' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'card_setup_not_found' });
  });

  it('refuses a payment reference and a caller without a session, reading nothing', async () => {
    signedIn();
    expect((await ask({ reference: 'plan-1' })).status).toBe(400);
    expect((await ask({ reference: 'setup-1' }, null)).status).toBe(401);
    expect(fake.calls('card_setup_state')).toEqual([]);
  });
});
