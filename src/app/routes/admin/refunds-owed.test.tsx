import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { answerConfirm, pagedResponse, signInAsAdmin } from '@/testing/admin-fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { postgrestError, REST_URL, restGet, rpc } from '@/testing/supabase-mocks';

// Bookings Management's "Refunds owed" (decision 0010): refunds_owed (admins read it by RLS) with the
// payment's provider checkout, mark_refund_refunded, and the refund-payment function. The SQL is
// in supabase/tests/refunds-*.test.ts, the function in netlify/functions/refund-payment.test.ts.

type Row = Record<string, unknown> & { id: string };
const owed = (id: string, fields: Partial<Row> = {}): Row => ({
  id,
  member_name: 'Pat Payg',
  member_email: 'payg@studio.test',
  description: 'Breakfast Club - PAYG Booking',
  class_start_time: '2030-07-01T05:00:00+00:00',
  amount: 12.5,
  reason: 'admin_cancelled',
  created_at: '2030-06-20T08:30:00+00:00',
  provider_refund_state: null,
  provider_refund_error: null,
  payment: { provider_checkout_id: 'chk_1' },
  ...fields,
});

function setup(initial: Row[]) {
  const { handlers, session } = signInAsAdmin();
  let rows = [...initial];
  const reads: URL[] = [];
  server.use(
    ...handlers,
    restGet('class_waitlist', () => []),
    rpc('admin_bookings_total', () => 0),
    http.get(`${REST_URL}/admin_bookings`, ({ request }) => pagedResponse(new URL(request.url), [])),
    restGet('refunds_owed', ({ url }) => (reads.push(url), rows)),
  );
  const settle = (id: string) => (rows = rows.filter((r) => r.id !== id));
  return { reads, settle, token: session.access_token };
}

const panel = async () => within(await screen.findByRole('region', { name: 'Refunds owed' }));

describe('Refunds owed', () => {
  afterEach(() => {
    act(() => toast.remove());
  });

  it('lists what is owed: who, what, how much in pounds, why and when, still open only', async () => {
    const { reads } = setup([
      owed('r-1'),
      owed('r-2', {
        member_name: null,
        member_email: 'gone@example.com',
        reason: 'member_deleted',
        description: 'Standard membership (unused days)',
        class_start_time: null,
        amount: '66.67',
        payment: { provider_checkout_id: null },
      }),
    ]);
    renderApp('/admin/bookings');
    const list = await panel();
    const rows = await list.findAllByRole('row');
    expect(rows).toHaveLength(3);
    const first = within(rows[1]!);
    expect(first.getByText('Pat Payg')).toBeInTheDocument();
    expect(first.getByText('Breakfast Club - PAYG Booking')).toBeInTheDocument();
    expect(first.getByText('Class 1 Jul 2030, 6:00 AM')).toBeInTheDocument(); // London summer time
    expect(first.getByText('£12.50')).toBeInTheDocument();
    expect(first.getByText('Booking cancelled by an admin')).toBeInTheDocument();
    expect(first.getByText('20 Jun 2030, 9:30 AM')).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Refund £12.50 to Pat Payg via SumUp' })).toBeEnabled();

    const second = within(rows[2]!);
    expect(second.getByText('gone@example.com')).toBeInTheDocument();
    expect(second.getByText('£66.67')).toBeInTheDocument();
    expect(second.getByText('Member deleted')).toBeInTheDocument();
    // Not paid through SumUp: marked by hand only, and the screen says why.
    expect(second.queryByRole('button', { name: /via SumUp/ })).not.toBeInTheDocument();
    expect(second.getByText('Not paid through SumUp: refund it another way, then mark it refunded.')).toBeInTheDocument();

    expect(reads[0]!.searchParams.get('refunded_at')).toBe('is.null');
    expect(reads[0]!.searchParams.get('select')).toContain('payment:payments(provider_checkout_id,collected_by)');
  });

  it('marks one refunded after confirmation, through mark_refund_refunded, and reads the list again', async () => {
    const { settle } = setup([owed('r-1')]);
    const calls: unknown[] = [];
    server.use(rpc('mark_refund_refunded', ({ args }) => (calls.push(args), settle('r-1'), { id: 'r-1' })));
    const confirm = answerConfirm(true);
    const user = userEvent.setup();
    renderApp('/admin/bookings');
    await user.click(await (await panel()).findByRole('button', { name: 'Mark £12.50 to Pat Payg as refunded' }));
    expect(confirm).toHaveBeenCalledWith('Mark £12.50 to Pat Payg as refunded? Only do this once the money is back with them.');
    expect(await screen.findByText('Marked as refunded')).toBeInTheDocument();
    expect(calls).toEqual([{ p_refund_id: 'r-1' }]);
    expect(await (await panel()).findByText('No refunds owed')).toBeInTheDocument();
  });

  it('changes nothing when the admin does not confirm', async () => {
    setup([owed('r-1')]);
    const calls: unknown[] = [];
    server.use(rpc('mark_refund_refunded', ({ args }) => (calls.push(args), { id: 'r-1' })));
    answerConfirm(false);
    const user = userEvent.setup();
    renderApp('/admin/bookings');
    await user.click(await (await panel()).findByRole('button', { name: 'Mark £12.50 to Pat Payg as refunded' }));
    expect(calls).toEqual([]);
  });

  it("says the database's reason when marking is refused (a SumUp refund is under way)", async () => {
    setup([owed('r-1', { provider_refund_state: 'in_progress' })]);
    server.use(
      rpc('mark_refund_refunded', () =>
        postgrestError({
          code: 'P0001',
          message: 'A refund through SumUp is already under way for this payment',
          hint: 'refund_in_progress',
        }),
      ),
    );
    answerConfirm(true);
    const user = userEvent.setup();
    renderApp('/admin/bookings');
    const list = await panel();
    expect(await list.findByText('SumUp refund under way')).toBeInTheDocument();
    expect(list.queryByRole('button', { name: /via SumUp/ })).not.toBeInTheDocument();
    await user.click(list.getByRole('button', { name: 'Mark £12.50 to Pat Payg as refunded' }));
    expect(await screen.findByText('A refund through SumUp is already under way for this payment')).toBeInTheDocument();
  });

  it('refunds through the refund-payment function with the admin session, then reads the list again', async () => {
    const { settle, token } = setup([owed('r-1')]);
    const posts: { body: unknown; authorization: string | null }[] = [];
    server.use(
      http.post('/.netlify/functions/refund-payment', async ({ request }) => {
        posts.push({ body: await request.json(), authorization: request.headers.get('authorization') });
        settle('r-1');
        return HttpResponse.json({
          refundId: 'r-1',
          alreadyRefunded: false,
          refundedAt: '2030-06-21T09:00:00+00:00',
          providerRefundId: 'txn-1',
        });
      }),
    );
    const confirm = answerConfirm(true);
    const user = userEvent.setup();
    renderApp('/admin/bookings');
    await user.click(await (await panel()).findByRole('button', { name: 'Refund £12.50 to Pat Payg via SumUp' }));
    expect(confirm).toHaveBeenCalledWith('Refund £12.50 to Pat Payg through SumUp?');
    expect(await screen.findByText('Refunded through SumUp')).toBeInTheDocument();
    expect(posts).toEqual([{ body: { refundId: 'r-1' }, authorization: `Bearer ${token}` }]);
    expect(await (await panel()).findByText('No refunds owed')).toBeInTheDocument();
  });

  it('refunds a Direct Debit payment through GoCardless the same way (decision 0103)', async () => {
    const { settle } = setup([
      owed('r-dd', {
        member_name: 'Dee Debit',
        description: 'Standard (£100/month)',
        class_start_time: null,
        amount: 100,
        reason: 'duplicate_payment',
        payment: { provider_checkout_id: 'PM123', collected_by: 'direct_debit' },
      }),
      owed('r-dd-out', {
        member_name: 'Otto Out',
        provider_refund_state: 'in_progress',
        payment: { provider_checkout_id: 'PM9', collected_by: 'direct_debit' },
      }),
    ]);
    const posts: unknown[] = [];
    server.use(
      http.post('/.netlify/functions/refund-payment', async ({ request }) => {
        posts.push(await request.json());
        settle('r-dd');
        return HttpResponse.json({
          refundId: 'r-dd',
          alreadyRefunded: false,
          refundedAt: '2030-06-21T09:00:00+00:00',
          providerRefundId: 'RF1',
        });
      }),
    );
    const confirm = answerConfirm(true);
    const user = userEvent.setup();
    renderApp('/admin/bookings');
    const list = await panel();
    expect(await list.findByText('GoCardless refund under way')).toBeInTheDocument();
    expect(list.queryByRole('button', { name: /via SumUp/ })).not.toBeInTheDocument();
    await user.click(list.getByRole('button', { name: 'Refund £100.00 to Dee Debit via GoCardless' }));
    expect(confirm).toHaveBeenCalledWith('Refund £100.00 to Dee Debit through GoCardless?');
    expect(await screen.findByText('Refunded through GoCardless')).toBeInTheDocument();
    expect(posts).toEqual([{ refundId: 'r-dd' }]);
  });

  it("shows SumUp's refusal, and what to do when SumUp did not confirm", async () => {
    setup([
      owed('r-1'),
      owed('r-2', { member_name: 'Una Unconfirmed', provider_refund_state: 'unconfirmed', provider_refund_error: 'timeout' }),
    ]);
    server.use(
      http.post('/.netlify/functions/refund-payment', () =>
        HttpResponse.json(
          { error: 'refund_refused', message: 'SumUp refused the refund: amount exceeds the refundable amount' },
          { status: 502 },
        ),
      ),
    );
    answerConfirm(true);
    const user = userEvent.setup();
    renderApp('/admin/bookings');
    const list = await panel();
    expect(
      await list.findByText('SumUp did not confirm the refund: check the SumUp dashboard, then mark it refunded.'),
    ).toBeInTheDocument();
    expect(list.queryByRole('button', { name: 'Refund £12.50 to Una Unconfirmed via SumUp' })).not.toBeInTheDocument();
    await user.click(list.getByRole('button', { name: 'Refund £12.50 to Pat Payg via SumUp' }));
    expect(await screen.findByText('SumUp refused the refund: amount exceeds the refundable amount')).toBeInTheDocument();
  });

  it('says the refund failed when the function cannot be reached', async () => {
    setup([owed('r-1')]);
    server.use(http.post('/.netlify/functions/refund-payment', () => HttpResponse.error()));
    answerConfirm(true);
    const user = userEvent.setup();
    renderApp('/admin/bookings');
    await user.click(await (await panel()).findByRole('button', { name: 'Refund £12.50 to Pat Payg via SumUp' }));
    expect(await screen.findByText('Could not refund through SumUp. Please try again.')).toBeInTheDocument();
  });

  it('says when nothing is owed', async () => {
    setup([]);
    renderApp('/admin/bookings');
    expect(await (await panel()).findByText('No refunds owed')).toBeInTheDocument();
  });

  it('says when the refunds owed cannot be read', async () => {
    setup([]);
    server.use(restGet('refunds_owed', () => postgrestError({ code: '42501', message: 'permission denied' }, 403)));
    renderApp('/admin/bookings');
    expect(await (await panel()).findByText('Could not load the refunds owed')).toBeInTheDocument();
  });
});
