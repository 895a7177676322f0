import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/render';
import { memberHandler, rpc, signInAs } from '@/testing/supabase-mocks';
import { BalanceCard } from './balance-card';
import { BuyGiftVoucher } from './buy-gift-voucher-form';
import { GiftVoucherSettings } from './gift-voucher-settings';
import { GiftVouchersAdmin } from './gift-vouchers-admin';
import { RedeemGiftVoucher } from './redeem-gift-voucher';

// Gift vouchers and the balance on screen (decisions 0100, 0101): the database decides; the screens
// check what they can before asking, send what was chosen, and say the database's answer.

afterEach(() => vi.restoreAllMocks());

const OPTIONS = {
  min_amount: 10,
  max_amount: 500,
  expiry_months: 12,
  packages: [{ slug: 'dropin', name: 'Drop-In Session', price: 115 }],
};

describe('buying a gift voucher', () => {
  it('lets a visitor buy one, checking the amount and their email first, and states the expiry', async () => {
    const sent: unknown[] = [];
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    server.use(
      rpc('gift_voucher_options', () => OPTIONS),
      http.post('*/.netlify/functions/buy-gift-voucher', async ({ request }) => {
        sent.push({ body: await request.json(), authorization: request.headers.get('authorization') });
        return HttpResponse.json({ url: 'https://pay.example/checkout/1', reference: 'voucher-1' });
      }),
    );
    renderWithProviders(<BuyGiftVoucher />);
    const form = await screen.findByRole('form', { name: 'Buy a gift voucher' });
    expect(within(form).getByText(/can be redeemed for 12 months from today: it expires after that/)).toBeInTheDocument();

    await userEvent.type(within(form).getByLabelText('Amount in pounds'), '12.50');
    await userEvent.type(within(form).getByLabelText("Recipient's name"), 'Robin Friend');
    await userEvent.type(within(form).getByLabelText("Recipient's email"), 'robin@example.com');
    await userEvent.type(within(form).getByLabelText(/^Message/), 'Happy birthday!');
    await userEvent.type(within(form).getByLabelText('Your name'), 'Sam Giver');
    await userEvent.type(within(form).getByLabelText('Your email'), 'sam');
    await userEvent.click(within(form).getByRole('button', { name: 'Pay by card' }));
    expect(await within(form).findByText('A whole number of pounds from £10 to £500')).toBeInTheDocument();
    expect(within(form).getByText('Enter your email address, for the receipt')).toBeInTheDocument();
    expect(sent).toEqual([]);

    await userEvent.clear(within(form).getByLabelText('Amount in pounds'));
    await userEvent.type(within(form).getByLabelText('Amount in pounds'), '50');
    await userEvent.type(within(form).getByLabelText('Your email'), '@example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Pay by card' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/checkout/1'));
    expect(sent).toEqual([
      {
        authorization: null,
        body: expect.objectContaining({
          amount: 50,
          recipientName: 'Robin Friend',
          recipientEmail: 'robin@example.com',
          message: 'Happy birthday!',
          buyerName: 'Sam Giver',
          buyerEmail: 'sam@example.com',
        }),
      },
    ]);
    vi.unstubAllGlobals();
  });

  it("sends a member's package choice with their session, and asks them for neither name nor email", async () => {
    const signed = signInAs({ membership_tier: 'payg' });
    const sent: Record<string, unknown>[] = [];
    server.use(
      memberHandler(signed.member),
      rpc('gift_voucher_options', () => OPTIONS),
      http.post('*/.netlify/functions/buy-gift-voucher', async ({ request }) => {
        sent.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json(
          { error: 'invalid_delivery_date', message: 'The delivery date is today or later, at most a year ahead.' },
          { status: 400 },
        );
      }),
    );
    renderWithProviders(<BuyGiftVoucher />);
    const form = await screen.findByRole('form', { name: 'Buy a gift voucher' });
    await vi.waitFor(() => expect(within(form).queryByLabelText('Your email')).not.toBeInTheDocument());
    await userEvent.selectOptions(within(form).getByLabelText('Gift'), 'dropin');
    expect(within(form).queryByLabelText('Amount in pounds')).not.toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText("Recipient's name"), 'Robin');
    await userEvent.type(within(form).getByLabelText("Recipient's email"), 'robin@example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Pay by card' }));
    expect(await screen.findByText('The delivery date is today or later, at most a year ahead.')).toBeInTheDocument();
    expect(sent).toEqual([expect.objectContaining({ planSlug: 'dropin', recipientName: 'Robin' })]);
    expect(sent[0]).not.toHaveProperty('amount');
    expect(sent[0]).not.toHaveProperty('buyerEmail');
  });
});

describe('redeeming and the balance', () => {
  it('redeems a code from the email link, and says a refusal in the database words', async () => {
    const signed = signInAs({ membership_tier: 'payg' });
    const codes: unknown[] = [];
    server.use(
      memberHandler(signed.member),
      rpc('redeem_gift_voucher', ({ args }) => {
        codes.push(args.p_code);
        return args.p_code === 'ABCDEFGHJKLMNPQR'
          ? { outcome: 'redeemed', amount: 50, balance: 50, message: '£50.00 has been added to your balance.' }
          : { outcome: 'expired', amount: 20, balance: 50, message: 'This gift voucher expired on 1 January 2026. Please ask the studio.' };
      }),
    );
    renderWithProviders(<RedeemGiftVoucher initialCode="abcd-efgh-jklm-npqr" />);
    const form = screen.getByRole('form', { name: 'Redeem a gift voucher' });
    await userEvent.click(within(form).getByRole('button', { name: 'Redeem' }));
    expect(await screen.findByText('£50.00 has been added to your balance.')).toBeInTheDocument();

    await userEvent.type(within(form).getByLabelText('Gift voucher code'), 'short');
    await userEvent.click(within(form).getByRole('button', { name: 'Redeem' }));
    expect(await within(form).findByText('A code is 16 letters and digits, like ABCD-EFGH-JKLM-NPQR')).toBeInTheDocument();

    await userEvent.clear(within(form).getByLabelText('Gift voucher code'));
    await userEvent.type(within(form).getByLabelText('Gift voucher code'), 'ZZZZ ZZZZ ZZZZ ZZZZ');
    await userEvent.click(within(form).getByRole('button', { name: 'Redeem' }));
    expect(await within(form).findByText('This gift voucher expired on 1 January 2026. Please ask the studio.')).toBeInTheDocument();
    expect(codes).toEqual(['ABCDEFGHJKLMNPQR', 'ZZZZZZZZZZZZZZZZ']);
  });

  it('shows the balance and its history', async () => {
    const signed = signInAs({ membership_tier: 'payg' });
    server.use(
      memberHandler(signed.member),
      rpc('my_balance', () => 10),
      rpc('my_balance_history', () => [
        {
          id: 'b2',
          amount: -40,
          kind: 'spent',
          description: 'Drop-In Session (£115), £40.00 from your balance',
          created_at: '2026-11-20T10:00:00Z',
          balance_after: 10,
        },
        {
          id: 'b1',
          amount: 50,
          kind: 'voucher',
          description: 'Gift voucher from Sam Giver',
          created_at: '2026-11-19T10:00:00Z',
          balance_after: 50,
        },
      ]),
    );
    renderWithProviders(<BalanceCard />);
    expect(await screen.findByRole('heading', { name: 'Your balance: £10.00' })).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Balance history' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'DateWhatAmount',
      '20 November 2026Drop-In Session (£115), £40.00 from your balance−£40.00',
      '19 November 2026Gift voucher from Sam Giver+£50.00',
    ]);
  });
});

describe('Gift vouchers for admins', () => {
  it('lists vouchers with their state, searches by code or email, and extends an expiry', async () => {
    const signed = signInAs({ is_admin: true });
    const searches: unknown[] = [];
    const extended: unknown[] = [];
    const row = {
      id: 'v1',
      code: 'ABCD-EFGH-JKLM-NPQR',
      status: 'expired',
      amount: 50,
      package_name: null,
      buyer_name: 'Sam Giver',
      buyer_email: 'sam@example.com',
      recipient_name: 'Robin Friend',
      recipient_email: 'robin@example.com',
      deliver_on: '2025-01-01',
      created_at: '2025-01-01T10:00:00Z',
      delivered_at: '2025-01-01T10:00:00Z',
      redeemed_at: null,
      redeemed_by_name: null,
      expires_at: '2026-01-01T10:00:00Z',
    };
    server.use(
      memberHandler(signed.member),
      rpc('admin_gift_vouchers', ({ args }) => {
        searches.push(args.p_search ?? null);
        return args.p_search === 'nobody' ? [] : [row];
      }),
      rpc('admin_extend_gift_voucher', ({ args }) => {
        extended.push(args);
        return { ...row, expires_at: args.p_expires_at };
      }),
    );
    renderWithProviders(<GiftVouchersAdmin />);
    const list = await screen.findByRole('list', { name: 'Gift vouchers' });
    expect(within(list).getByText('Expired')).toBeInTheDocument();
    expect(within(list).getByText(/£50.00 from Sam Giver \(sam@example.com\) for Robin Friend/)).toBeInTheDocument();

    await userEvent.click(within(list).getByRole('button', { name: 'Extend expiry' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend gift voucher ABCD-EFGH-JKLM-NPQR' });
    await userEvent.type(within(dialog).getByLabelText('New expiry date'), '2099-06-30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    await vi.waitFor(() => expect(extended).toEqual([{ p_voucher_id: 'v1', p_expires_at: '2099-06-30T22:59:59Z' }]));

    await userEvent.type(screen.getByLabelText('Search gift vouchers'), 'nobody');
    expect(await screen.findByText('No gift vouchers match the search.')).toBeInTheDocument();
    expect(searches).toContain('nobody');
  });
});

describe('gift voucher settings', () => {
  it("shows the studio's rules, refuses a largest amount below the smallest, and saves", async () => {
    const signed = signInAs({ is_admin: true });
    const saved: unknown[] = [];
    server.use(
      memberHandler(signed.member),
      rpc('gift_voucher_options', () => OPTIONS),
      rpc('admin_set_gift_voucher_settings', ({ args }) => {
        saved.push(args);
        return { id: true, min_amount: args.p_min_amount, max_amount: args.p_max_amount, expiry_months: args.p_expiry_months };
      }),
    );
    renderWithProviders(<GiftVoucherSettings />);
    const form = screen.getByRole('form', { name: 'Gift voucher settings' });
    await vi.waitFor(() => expect(within(form).getByLabelText('Smallest amount (£)')).toHaveValue('10'));
    expect(within(form).getByLabelText('Months a voucher lasts')).toHaveValue('12');

    await userEvent.clear(within(form).getByLabelText('Largest amount (£)'));
    await userEvent.type(within(form).getByLabelText('Largest amount (£)'), '5');
    await userEvent.click(within(form).getByRole('button', { name: 'Save gift voucher settings' }));
    expect(await within(form).findByText('Not below the smallest amount')).toBeInTheDocument();
    expect(saved).toEqual([]);

    await userEvent.clear(within(form).getByLabelText('Largest amount (£)'));
    await userEvent.type(within(form).getByLabelText('Largest amount (£)'), '300');
    await userEvent.clear(within(form).getByLabelText('Months a voucher lasts'));
    await userEvent.type(within(form).getByLabelText('Months a voucher lasts'), '24');
    await userEvent.click(within(form).getByRole('button', { name: 'Save gift voucher settings' }));
    await vi.waitFor(() => expect(saved).toEqual([{ p_min_amount: 10, p_max_amount: 300, p_expiry_months: 24 }]));
    expect(await screen.findByText('Gift voucher settings saved')).toBeInTheDocument();
  });
});
