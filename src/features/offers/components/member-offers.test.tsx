import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/render';
import { memberHandler, rpc, signInAs } from '@/testing/supabase-mocks';
import { MemberOffers } from './member-offers';

// A member's offers (decisions 0083, 0084): the intro offers the database lets them buy and their
// referral link.

afterEach(() => vi.restoreAllMocks());

const OFFERS = [
  {
    id: 'o1',
    name: 'First session',
    plan_slug: 'dropin',
    plan_name: 'Drop-In Session',
    list_price: 115,
    price: 45,
    ends_at: null,
    refusal: null,
  },
  {
    id: 'o2',
    name: 'Ten for less',
    plan_slug: 'bronze',
    plan_name: 'Bronze Package',
    list_price: 750,
    price: 600,
    ends_at: null,
    refusal: 'not_new_member',
  },
];
const REFERRAL = { code: 'AB12CD34', referred: 2, rewarded: 1, reward_kind: 'renewal_discount', renewal_amount: 15, enabled: true };

function setup() {
  const signed = signInAs({ membership_tier: 'payg' });
  const checkouts: unknown[] = [];
  server.use(
    memberHandler(signed.member),
    rpc('my_intro_offers', () => OFFERS),
    rpc('my_referral', () => REFERRAL),
    http.post('*/.netlify/functions/create-checkout', async ({ request }) => {
      checkouts.push(await request.json());
      return HttpResponse.json({ url: 'https://checkout.example/pay', reference: 'plan-1' });
    }),
  );
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign, origin: 'https://studio.example' });
  renderWithProviders(<MemberOffers />);
  return { checkouts, assign, userId: signed.user.id };
}

describe('member offers', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sells only the intro offers the database allows, with the intro offer sent to the checkout', async () => {
    const { checkouts, userId, assign } = setup();
    const buy = await screen.findByRole('button', { name: 'Buy First session for £45.00' });
    expect(screen.getByText(/Drop-In Session for £45.00/)).toBeInTheDocument();
    expect(screen.queryByText(/Ten for less/)).not.toBeInTheDocument();
    await userEvent.click(buy);
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/pay'));
    expect(checkouts).toEqual([{ planSlug: 'dropin', userId, introOfferId: 'o1' }]);
  });

  it('shows the referral link, the reward and what it has earned', async () => {
    setup();
    expect(await screen.findByRole('textbox', { name: 'Your referral link' })).toHaveValue(
      'https://studio.example/membership?ref=AB12CD34',
    );
    expect(screen.getByText(/you each get £15.00 off your next renewal/)).toBeInTheDocument();
    expect(screen.getByText('2 joined through your link; 1 reward given.')).toBeInTheDocument();
  });
});
