import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { pagedResponse, signInAsAdmin } from '@/testing/admin-fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { REST_URL, restGet, rpc } from '@/testing/supabase-mocks';

// Bookings Management's "Owed to the studio" (decision 0076): Direct Debits charged back, open ones
// first, each recorded as paid with how (admin_settle_chargeback). The SQL is in
// supabase/tests/direct-debit.test.ts.

const row = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  member_id: 'm-1',
  member_name: 'Dee Debit',
  description: 'Standard membership, 23 January 2030 to 23 February 2030',
  amount: 100,
  charged_back_at: '2030-02-05T10:00:00+00:00',
  settled_at: null,
  settled_note: null,
  ...fields,
});

function setup(rows: ReturnType<typeof row>[]) {
  const { handlers } = signInAsAdmin();
  const settled: unknown[] = [];
  server.use(
    rpc('admin_direct_debit_chargebacks', () => rows),
    rpc('admin_settle_chargeback', async ({ request }) => {
      settled.push(await request.json());
      return null;
    }),
    ...handlers,
    restGet('class_waitlist', () => []),
    restGet('refunds_owed', () => []),
    rpc('admin_bookings_total', () => 0),
    http.get(`${REST_URL}/admin_bookings`, ({ request }) => pagedResponse(new URL(request.url), [])),
  );
  renderApp('/admin/bookings');
  return { settled };
}

const panel = async () => within(await screen.findByRole('region', { name: 'Owed to the studio' }, { timeout: 10_000 }));

describe('Owed to the studio', () => {
  afterEach(() => {
    act(() => toast.remove());
  });

  it('lists charge-backs and records one as paid, saying how; an empty note is refused', async () => {
    const { settled } = setup([
      row('cb-1'),
      row('cb-2', { member_name: 'Paid Already', settled_at: '2030-02-10T10:00:00+00:00', settled_note: 'Cash at the desk' }),
    ]);
    const p = await panel();
    expect(await p.findByText('Dee Debit')).toBeInTheDocument();
    expect(p.getAllByText('£100.00')).toHaveLength(2);
    expect(p.getByText(/Cash at the desk/)).toBeInTheDocument();
    const form = p.getByRole('form', { name: 'Record £100.00 from Dee Debit as paid' });
    await userEvent.click(within(form).getByRole('button', { name: 'Record paid' }));
    expect(await within(form).findByText('Say how it was paid.')).toBeInTheDocument();
    expect(settled).toEqual([]);
    await userEvent.type(within(form).getByLabelText('How it was paid'), 'Bank transfer');
    await userEvent.click(within(form).getByRole('button', { name: 'Record paid' }));
    expect(await screen.findByText('Recorded £100.00 from Dee Debit as paid.')).toBeInTheDocument();
    expect(settled).toEqual([{ p_id: 'cb-1', p_note: 'Bank transfer' }]);
  });

  it('says when nothing is owed', async () => {
    setup([]);
    expect(await (await panel()).findByText('Nothing owed')).toBeInTheDocument();
  });
});
