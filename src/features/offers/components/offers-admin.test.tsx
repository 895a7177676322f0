import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/render';
import { memberHandler, postgrestError, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import { OffersAdmin } from './offers-admin';

// Admin > Settings, offers (decisions 0083, 0084): the report of uses and discounts, creating and
// ending codes and intro offers, and the referral reward.

afterEach(() => vi.restoreAllMocks());

const REPORT = [
  {
    kind: 'intro_offer',
    id: 'o1',
    name: 'First session',
    detail: 'Drop-In Session for £45.00 (usually £115.00)',
    status: 'active',
    uses: 3,
    max_uses: null,
    discount_total: 210,
    created_at: '2026-11-01T10:00:00Z',
  },
  {
    kind: 'promo_code',
    id: 'c1',
    name: 'SPRING10',
    detail: '10% off Drop-In Session, until 31 March 2027',
    status: 'active',
    uses: 4,
    max_uses: 50,
    discount_total: 46,
    created_at: '2026-11-02T10:00:00Z',
  },
  {
    kind: 'referrals',
    id: null,
    name: 'Referrals',
    detail: '2 referred, 1 rewarded, 0 refused',
    status: 'active',
    uses: 2,
    max_uses: null,
    discount_total: 0,
    created_at: '2026-11-01T10:00:00Z',
  },
];

function setup() {
  const signed = signInAs({ is_admin: true });
  const calls: { fn: string; args: Record<string, unknown> }[] = [];
  const record = (fn: string, answer: (args: Record<string, unknown>) => unknown = () => null) =>
    rpc(fn, ({ args }) => {
      calls.push({ fn, args });
      return answer(args) as never;
    });
  server.use(
    memberHandler(signed.member),
    rpc('admin_offer_report', () => REPORT),
    restGet('referral_settings', () => [{ enabled: true, reward_kind: 'session_credit', renewal_amount: 10, credit_valid_days: 90 }]),
    record('admin_create_promo_code', (args) =>
      args.p_code === 'TAKEN'
        ? postgrestError({ code: '23505', hint: 'code_exists', message: 'The code TAKEN exists already.' })
        : { id: 'c2' },
    ),
    record('admin_create_intro_offer', () => ({ id: 'o2' })),
    record('admin_end_offer'),
    record('admin_set_referral_settings', () => ({ id: true })),
  );
  renderWithProviders(<OffersAdmin />);
  return { calls };
}

describe('offers admin', () => {
  it('lists each offer with its uses and the money it took off, and ends one', async () => {
    const { calls } = setup();
    const table = await screen.findByRole('table', { name: 'Offers and their uses' });
    const spring = within(table).getByRole('row', { name: /SPRING10/ });
    expect(within(spring).getByText('4 of 50')).toBeInTheDocument();
    expect(within(spring).getByText('£46.00')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'End Referrals' })).not.toBeInTheDocument();
    await userEvent.click(within(spring).getByRole('button', { name: 'End SPRING10' }));
    await vi.waitFor(() => expect(calls).toEqual([{ fn: 'admin_end_offer', args: { p_promo_code_id: 'c1' } }]));
  });

  it('creates a promo code for the plans chosen, and shows why the database refused one', async () => {
    const { calls } = setup();
    const form = await screen.findByRole('form', { name: 'New promo code' });
    await userEvent.type(within(form).getByLabelText('Code'), 'spring10');
    await userEvent.type(within(form).getByLabelText('Off (percent or £)'), '10');
    await userEvent.type(within(form).getByLabelText('Last day'), '2027-03-31');
    await userEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    expect(await within(form).findByText('Choose at least one plan')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Drop-In Session' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    await vi.waitFor(() =>
      expect(calls).toEqual([
        {
          fn: 'admin_create_promo_code',
          args: {
            p_code: 'SPRING10',
            p_plan_slugs: ['dropin'],
            p_expires_at: '2027-03-31T22:59:00.000Z',
            p_max_uses: 100,
            p_percent_off: 10,
          },
        },
      ]),
    );

    await userEvent.clear(within(form).getByLabelText('Code'));
    await userEvent.type(within(form).getByLabelText('Code'), 'TAKEN');
    await userEvent.type(within(form).getByLabelText('Off (percent or £)'), '10');
    await userEvent.type(within(form).getByLabelText('Last day'), '2027-03-31');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Drop-In Session' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    expect(await within(form).findByText('The code TAKEN exists already.')).toBeInTheDocument();
  });

  it('creates an intro offer and saves the referral reward', async () => {
    const { calls } = setup();
    const offer = await screen.findByRole('form', { name: 'New intro offer' });
    await userEvent.type(within(offer).getByLabelText('Name'), 'First session');
    await userEvent.type(within(offer).getByLabelText('Intro price (£)'), '45');
    await userEvent.type(within(offer).getByLabelText(/Within days of joining/), '14');
    await userEvent.click(within(offer).getByRole('button', { name: 'Create offer' }));
    await vi.waitFor(() =>
      expect(calls).toContainEqual({
        fn: 'admin_create_intro_offer',
        args: { p_name: 'First session', p_plan_slug: 'dropin', p_price: 45, p_new_within_days: 14 },
      }),
    );

    const reward = screen.getByRole('form', { name: 'Referral reward' });
    await vi.waitFor(() => expect(within(reward).getByLabelText('Money off a renewal (£)')).toHaveValue('10.00'));
    await userEvent.click(within(reward).getByRole('radio', { name: 'Money off the next renewal' }));
    await userEvent.clear(within(reward).getByLabelText('Money off a renewal (£)'));
    await userEvent.type(within(reward).getByLabelText('Money off a renewal (£)'), '15');
    await userEvent.click(within(reward).getByRole('button', { name: 'Save referral reward' }));
    await vi.waitFor(() =>
      expect(calls).toContainEqual({
        fn: 'admin_set_referral_settings',
        args: { p_enabled: true, p_reward_kind: 'renewal_discount', p_renewal_amount: 15, p_credit_valid_days: 90 },
      }),
    );
    // "A free class credit" (decision 0102): one class credit each.
    await userEvent.click(within(reward).getByRole('radio', { name: 'A free class credit' }));
    await userEvent.click(within(reward).getByRole('button', { name: 'Save referral reward' }));
    await vi.waitFor(() =>
      expect(calls).toContainEqual({
        fn: 'admin_set_referral_settings',
        args: { p_enabled: true, p_reward_kind: 'class_credit', p_renewal_amount: 15, p_credit_valid_days: 90 },
      }),
    );
  });
});
