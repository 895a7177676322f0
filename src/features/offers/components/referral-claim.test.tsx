import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/render';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { rememberReferral, storedReferral } from '../lib/referral-link';
import { ReferralClaim } from './referral-claim';

// A friend's referral link is kept from any page and claimed once the person is signed in (decision 0084).

afterEach(() => vi.restoreAllMocks());

function setup(answer: () => unknown, { search = '', signedIn = true } = {}) {
  const signed = signInAs({ membership_tier: 'payg' });
  const claims: unknown[] = [];
  server.use(
    memberHandler(signed.member),
    rpc('claim_referral', ({ args }) => {
      claims.push(args);
      return answer() as never;
    }),
  );
  const view = renderWithProviders(<ReferralClaim search={search} signedIn={signedIn} />);
  return { claims, view };
}

describe('claiming a referral link', () => {
  it('a visitor: keeps the code and claims nothing', async () => {
    const { claims } = setup(() => ({ id: 'r1' }), { search: '?ref=zz99yy88', signedIn: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(storedReferral()).toBe('ZZ99YY88');
    expect(claims).toEqual([]);
  });

  it('signed in: claims the kept code once and forgets it', async () => {
    rememberReferral('?ref=zz99yy88');
    const { claims } = setup(() => ({ id: 'r1' }));
    await vi.waitFor(() => expect(claims).toEqual([{ p_code: 'ZZ99YY88' }]));
    await vi.waitFor(() => expect(storedReferral()).toBeNull());
  });

  it("forgets a link the database refuses (one's own)", async () => {
    const { claims } = setup(() => postgrestError({ code: 'P0001', hint: 'self_referral', message: 'You cannot refer yourself.' }), {
      search: '?ref=ZZ99YY88',
    });
    await vi.waitFor(() => expect(claims).toHaveLength(1));
    await vi.waitFor(() => expect(storedReferral()).toBeNull());
  });

  it('keeps it for the next visit when the request fails', async () => {
    rememberReferral('?ref=ZZ99YY88');
    const { claims } = setup(() => new Response('gateway down', { status: 502 }));
    await vi.waitFor(() => expect(claims).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(storedReferral()).toBe('ZZ99YY88');
  });
});
