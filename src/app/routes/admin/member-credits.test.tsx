import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { pagedResponse, signInAsAdmin } from '@/testing/admin-fixtures';
import { postgrestError, REST_URL, restGet, rpc } from '@/testing/supabase-mocks';

// A member's credits on Members Management: public.credits with the booking that used
// each, written through admin_grant_credits / admin_revoke_credit / admin_book_one_to_one / admin_move_session.

const LIST = [
  {
    id: 'm1',
    name: 'Paul Payg',
    email: 'm1@studio.test',
    membership_tier: 'payg',
    created_at: '2026-03-05T10:00:00Z',
    bookings: [{ count: 0 }],
    memberships: null,
  },
];
const base = {
  valid_from: '2026-01-01T00:00:00Z',
  created_at: '2026-01-01T00:00:00Z',
  revoke_reason: null,
  revoked_at: null,
  used_at: null,
  payment_id: null,
  booking: null,
};
const CREDITS = [
  { ...base, id: 'c1', kind: 'personal_training', source: 'admin_grant', reason: 'Goodwill', expires_at: '2030-01-03T12:00:00Z' },
  {
    ...base,
    id: 'c2',
    kind: 'personal_training',
    source: 'package',
    reason: null,
    payment_id: 'p1',
    expires_at: '2030-02-01T12:00:00Z',
    used_at: '2029-12-01T10:00:00Z',
    booking: {
      id: 'b1',
      class: { id: 's1', name: 'Personal Training', trainer: 'Coach Alex', start_time: '2030-01-10T10:00:00Z', type: 'One-to-One' },
    },
  },
  // Two more sessions of the same package, still to use.
  ...['c4', 'c5'].map((id) => ({
    ...base,
    id,
    kind: 'personal_training',
    source: 'package',
    reason: null,
    payment_id: 'p1',
    expires_at: '2030-02-01T12:00:00Z',
  })),
  {
    ...base,
    id: 'c3',
    kind: 'guest_pass',
    source: 'membership_period',
    reason: null,
    expires_at: '2026-02-01T12:00:00Z',
    revoked_at: '2026-01-10T10:00:00Z',
    revoke_reason: 'Given in error',
  },
];
const SESSIONS = [{ id: 's2', trainer: 'Coach Jess', start_time: '2030-01-12T09:00:00Z', duration: 60 }];

function setup() {
  const { handlers } = signInAsAdmin(() => LIST);
  const calls: { fn: string; args: Record<string, unknown> }[] = [];
  const record = (fn: string) => rpc(fn, ({ args }) => (calls.push({ fn, args }), fn === 'admin_grant_credits' ? 2 : null));
  server.use(
    http.get(`${REST_URL}/members`, ({ request }) => {
      const url = new URL(request.url);
      if (!url.searchParams.has('order')) return undefined;
      return pagedResponse(url, LIST);
    }),
    ...handlers,
    http.head(`${REST_URL}/members`, () => new HttpResponse(null, { headers: { 'content-range': `*/${LIST.length}` } })),
    restGet('credits', () => CREDITS),
    restGet('classes', () => SESSIONS),
    record('admin_grant_credits'),
    record('admin_revoke_credit'),
    record('admin_move_session'),
    record('admin_refund_package'),
    rpc('admin_book_one_to_one', () =>
      postgrestError({
        code: 'P0001',
        hint: 'no_credit',
        message:
          'The member has no personal-training session to use for this session: it is £115.00, paid by the member on Personal training.',
      }),
    ),
  );
  renderApp('/admin/members');
  return calls;
}

describe('Members Management: a member’s credits', () => {
  it('shows each credit’s history, grants, revokes with a reason, moves a session and says why a booking is refused', async () => {
    const calls = setup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Credits: Paul Payg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Credits of Paul Payg' });
    const history = within(dialog).getByRole('region', { name: 'Credit history' });
    expect(await within(history).findByText('Personal-training session · Granted: Goodwill')).toBeInTheDocument();
    expect(within(history).getByText('Available until 3 Jan 2030')).toBeInTheDocument();
    expect(within(history).getByText('Used for Personal Training with Coach Alex, 10 Jan 2030, 10:00')).toBeInTheDocument();
    expect(within(history).getByText('Revoked 10 Jan 2026: Given in error')).toBeInTheDocument();

    const grant = within(dialog).getByRole('form', { name: 'Grant credits' });
    await user.click(within(grant).getByRole('button', { name: 'Grant' }));
    expect(within(grant).getByText('Give a reason')).toBeInTheDocument();
    await user.clear(within(grant).getByLabelText('How many'));
    await user.type(within(grant).getByLabelText('How many'), '2');
    await user.type(within(grant).getByLabelText('Reason'), 'Birthday');
    await user.click(within(grant).getByRole('button', { name: 'Grant' }));
    await waitFor(() =>
      expect(calls[0]).toEqual({
        fn: 'admin_grant_credits',
        args: { p_member_id: 'm1', p_kind: 'personal_training', p_count: 2, p_valid_days: 90, p_reason: 'Birthday' },
      }),
    );

    await user.click(within(history).getByRole('button', { name: 'Revoke Personal-training session · Granted: Goodwill' }));
    const revoke = within(history).getByRole('form', { name: 'Revoke Personal-training session · Granted: Goodwill' });
    await user.type(within(revoke).getByLabelText('Reason'), 'Duplicate');
    await user.click(within(revoke).getByRole('button', { name: 'Revoke credit' }));
    await waitFor(() => expect(calls[1]).toEqual({ fn: 'admin_revoke_credit', args: { p_credit_id: 'c1', p_reason: 'Duplicate' } }));

    // The package's two unused sessions are refunded with a reason (used ones are not).
    const packages = within(dialog).getByRole('region', { name: 'Packages' });
    await user.click(within(packages).getByRole('button', { name: 'Refund 2 unused sessions' }));
    const refund = within(packages).getByRole('form', { name: 'Refund 2 unused sessions' });
    await user.type(within(refund).getByLabelText('Reason'), 'Moving away');
    await user.click(within(refund).getByRole('button', { name: 'Refund 2 unused sessions' }));
    await waitFor(() => expect(calls[2]).toEqual({ fn: 'admin_refund_package', args: { p_payment_id: 'p1', p_reason: 'Moving away' } }));
    expect(await screen.findByText('Sessions revoked: the refund is listed under Refunds owed on Bookings')).toBeInTheDocument();

    const sessions = within(dialog).getByRole('region', { name: 'One-to-One sessions' });
    await user.selectOptions(within(sessions).getByLabelText('Move Coach Alex, Thu 10 Jan, 10:00 to'), 'Coach Jess, Sat 12 Jan, 09:00');
    await user.click(within(sessions).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(calls[3]).toEqual({ fn: 'admin_move_session', args: { p_booking_id: 'b1', p_to_class_id: 's2' } }));

    await user.selectOptions(within(sessions).getByLabelText('Book into a session (uses their credit)'), 'Coach Jess, Sat 12 Jan, 09:00');
    await user.click(within(sessions).getByRole('button', { name: 'Book session' }));
    expect(
      await screen.findByText(
        'The member has no personal-training session to use for this session: it is £115.00, paid by the member on Personal training.',
      ),
    ).toBeInTheDocument();
  });

  it('grants class credits, which book a group class the member would pay for (decision 0102)', async () => {
    const calls = setup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Credits: Paul Payg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Credits of Paul Payg' });
    const grant = within(dialog).getByRole('form', { name: 'Grant credits' });
    await user.selectOptions(within(grant).getByLabelText('Kind'), 'Class credits');
    await user.type(within(grant).getByLabelText('Reason'), 'Class moved');
    await user.click(within(grant).getByRole('button', { name: 'Grant' }));
    await waitFor(() =>
      expect(calls[0]).toEqual({
        fn: 'admin_grant_credits',
        args: { p_member_id: 'm1', p_kind: 'class', p_count: 1, p_valid_days: 90, p_reason: 'Class moved' },
      }),
    );
  });
});
