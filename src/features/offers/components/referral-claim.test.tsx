import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/render';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { rememberReferral, storedReferral } from '../lib/referral-link';
import { ReferralClaim } from './referral-claim';

// A friend's referral link is claimed once the person is signed in (decision 0084).

afterEach(() => vi.restoreAllMocks());

function setup(answer: () => unknown) {
  const signed = signInAs({ membership_tier: 'payg' });
  const claims: unknown[] = [];
  const done = vi.fn();
  server.use(
    memberHandler(signed.member),
    rpc('claim_referral', ({ args }) => {
      claims.push(args);
      return answer() as never;
    }),
  );
  renderWithProviders(<ReferralClaim code="ZZ99YY88" onDone={done} />);
  return { claims, done };
}

describe('claiming a referral link', () => {
  it('claims it once and forgets it', async () => {
    rememberReferral('?ref=zz99yy88');
    const { claims, done } = setup(() => ({ id: 'r1' }));
    await vi.waitFor(() => expect(done).toHaveBeenCalledWith('ZZ99YY88'));
    expect(claims).toEqual([{ p_code: 'ZZ99YY88' }]);
    expect(storedReferral()).toBeNull();
  });

  it("forgets a link the database refuses (one's own)", async () => {
    rememberReferral('?ref=ZZ99YY88');
    const { done } = setup(() => postgrestError({ code: 'P0001', hint: 'self_referral', message: 'You cannot refer yourself.' }));
    await vi.waitFor(() => expect(done).toHaveBeenCalled());
    expect(storedReferral()).toBeNull();
  });

  it('keeps it for the next visit when the request fails', async () => {
    rememberReferral('?ref=ZZ99YY88');
    const { done } = setup(() => new Response('gateway down', { status: 502 }));
    await vi.waitFor(() => expect(done).toHaveBeenCalled());
    expect(storedReferral()).toBe('ZZ99YY88');
  });
});
