import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLANS } from '@/config/plans';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/render';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { PromoCodeBuy } from './promo-code-buy';

// The promo code at checkout (decision 0083): the database's price is shown before paying, the
// code goes to the checkout, and a refusal is said in the database's words.

afterEach(() => vi.restoreAllMocks());

function setup() {
  const signed = signInAs({ membership_tier: 'payg' });
  const priced: unknown[] = [];
  const checkouts: unknown[] = [];
  server.use(
    memberHandler(signed.member),
    rpc('my_offer_price', ({ args }) => {
      priced.push(args);
      if (args.p_promo_code === 'USED')
        return postgrestError({ code: 'P0001', hint: 'promo_used', message: 'You have already used the promo code USED.' });
      return { plan_slug: 'dropin', list_price: 115, discount: 11.5, price: 103.5, promo_code_id: 'c1', intro_offer_id: null, label: 'x' };
    }),
    http.post('*/.netlify/functions/create-checkout', async ({ request }) => {
      checkouts.push(await request.json());
      return HttpResponse.json(
        { error: 'promo_used_up', message: 'The promo code SPRING10 has been used as often as it can be.' },
        { status: 409 },
      );
    }),
  );
  renderWithProviders(<PromoCodeBuy plan={PLANS.dropin} />);
  return { priced, checkouts, userId: signed.user.id };
}

describe('a promo code at checkout', () => {
  it('shows the new price before paying and sends the code with Buy', async () => {
    const { priced, checkouts, userId } = setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await userEvent.click(await screen.findByRole('button', { name: 'Have a promo code?' }));
    const form = screen.getByRole('form', { name: 'Promo code for Drop-In Session' });
    await userEvent.type(within(form).getByLabelText('Promo code'), 'spring10');
    await userEvent.click(within(form).getByRole('button', { name: 'Apply' }));

    expect(await screen.findByRole('status')).toHaveTextContent('£115.00 £103.50: code SPRING10, £11.50 off.');
    expect(priced).toEqual([{ p_plan_slug: 'dropin', p_promo_code: 'spring10' }]);
    await userEvent.click(screen.getByRole('button', { name: 'Buy Drop-In Session for £103.50' }));
    // Used up between the preview and Buy: the checkout says so in its own words.
    await vi.waitFor(() => expect(alert).toHaveBeenCalledWith('The promo code SPRING10 has been used as often as it can be.'));
    expect(checkouts).toEqual([{ planSlug: 'dropin', userId, promoCode: 'SPRING10' }]);
  });

  it("says why a code does not apply and keeps the catalogue's price", async () => {
    setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Have a promo code?' }));
    await userEvent.type(screen.getByLabelText('Promo code'), 'USED');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('You have already used the promo code USED.')).toBeInTheDocument();
    expect(screen.getByLabelText('Promo code')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Buy Drop-In Session' })).toBeInTheDocument();
  });

  it('checks the code is there before asking', async () => {
    const { priced } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Have a promo code?' }));
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Enter the code, 3 to 30 letters or digits')).toBeInTheDocument();
    expect(priced).toEqual([]);
  });
});

describe("the balance's part before paying (decisions 0101 and 0108)", () => {
  function withBalance(price: { balance_used: number; to_charge: number }, plan = PLANS.standard) {
    const signed = signInAs({ membership_tier: 'payg' });
    server.use(
      memberHandler(signed.member),
      rpc('my_balance', () => 40),
      rpc('my_offer_price', () => ({
        plan_slug: plan.slug,
        list_price: 100,
        discount: 0,
        price: 100,
        promo_code_id: null,
        intro_offer_id: null,
        label: null,
        ...price,
      })),
    );
    renderWithProviders(<PromoCodeBuy plan={plan} />);
  }

  it('a membership: says what the balance pays of the first month and what the card is charged', async () => {
    withBalance({ balance_used: 40, to_charge: 60 });
    expect(await screen.findByRole('status')).toHaveTextContent('Your balance pays £40.00 of the first month: £60.00 by card.');
  });

  it('a membership the balance pays in full still asks for a card, for the renewals', async () => {
    withBalance({ balance_used: 100, to_charge: 0 });
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your balance pays all of the first month (£100.00): you add a card for the renewals, nothing charged now.',
    );
  });

  it('a package: the same words as before', async () => {
    withBalance({ balance_used: 40, to_charge: 60 }, PLANS.dropin);
    expect(await screen.findByRole('status')).toHaveTextContent('Your balance pays £40.00 of it: £60.00 by card.');
  });
});
