import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { pagedResponse, signInAsAdmin } from '@/testing/admin-fixtures';
import { postgrestError, REST_URL, rpc } from '@/testing/supabase-mocks';

// Members Management with memberships (decision 0009): plan status and next renewal per member, a
// "past due" filter done by the server, and putting a member on a plan at a price.

const member = (id: string, name: string, tier: string, plan: Record<string, unknown> | null) => ({
  id,
  name,
  email: `${id}@studio.test`,
  membership_tier: tier,
  created_at: '2026-03-05T10:00:00Z',
  bookings: [{ count: 0 }],
  memberships: plan,
});
const LIST = [
  member('m1', 'Priya Premium', 'premium', {
    status: 'active',
    period_end: '2030-03-04T12:00:00+00:00',
    ended_at: null,
    next_retry_at: null,
  }),
  member('m2', 'Sam Standard', 'standard', {
    status: 'past_due',
    period_end: '2030-02-20T12:00:00+00:00',
    ended_at: null,
    next_retry_at: '2030-02-23T12:00:00+00:00',
  }),
  member('m3', 'Cara Cancelled', 'standard', {
    status: 'cancelled',
    period_end: '2030-03-10T12:00:00+00:00',
    ended_at: null,
    next_retry_at: null,
  }),
  member('m4', 'Paul Payg', 'payg', null),
];

function setup() {
  const { handlers } = signInAsAdmin(() => LIST);
  const lists: URL[] = [];
  server.use(
    // First, so it answers the list before the admin guard's members handler: PostgREST applies
    // the embedded filter of an !inner join to the parent rows.
    http.get(`${REST_URL}/members`, ({ request }) => {
      const url = new URL(request.url);
      if (!url.searchParams.has('order')) return undefined;
      lists.push(url);
      const pastDue =
        url.searchParams.get('memberships.status') === 'eq.past_due' && url.searchParams.get('select')!.includes('memberships!inner(');
      return pagedResponse(url, pastDue ? LIST.filter((m) => m.memberships?.status === 'past_due') : LIST);
    }),
    ...handlers,
    http.head(`${REST_URL}/members`, () => new HttpResponse(null, { headers: { 'content-range': `*/${LIST.length}` } })),
  );
  renderApp('/admin/members');
  return lists;
}

describe('Members Management: plans', () => {
  it('shows each member’s plan status and next renewal (the retry when past due, the end when cancelled)', async () => {
    setup();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(rows[0]!).slice(2, 4)).toEqual(['Active', '4 Mar 2030']);
    expect(cells(rows[1]!).slice(2, 4)).toEqual(['Payment failed', 'Retry 23 Feb 2030']);
    expect(cells(rows[2]!).slice(2, 4)).toEqual(['Cancelled', 'Ends 10 Mar 2030']);
    expect(cells(rows[3]!).slice(2, 4)).toEqual(['—', '—']);
  });

  it('filters to past-due members on the server', async () => {
    const lists = setup();
    await screen.findByRole('table');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'Past due');
    await screen.findByText((_, el) => el?.tagName === 'P' && /^Showing 1 of 1/.test(el.textContent ?? ''));
    expect(screen.getByText('Sam Standard')).toBeInTheDocument();
    expect(screen.queryByText('Priya Premium')).not.toBeInTheDocument();
    const last = lists.at(-1)!;
    expect(last.searchParams.get('select')).toContain('memberships!inner(status,period_end,ended_at,next_retry_at)');
    expect(last.searchParams.get('memberships.status')).toBe('eq.past_due');
  });

  it('puts a member on a plan at a price, refusing a price that is not pounds and pence', async () => {
    setup();
    const calls: unknown[] = [];
    server.use(
      rpc('admin_put_on_plan', ({ args }) => {
        calls.push(args);
        return { id: 'ms', status: 'active', period_end: '2030-03-01T12:00:00+00:00', next_plan_slug: null, next_price: null };
      }),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Put on plan: Paul Payg' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Put Paul Payg on a plan' }));
    const price = dialog.getByRole('spinbutton', { name: /Monthly price/ });
    await user.clear(price);
    await user.type(price, '70.001');
    await user.click(dialog.getByRole('button', { name: 'Put on plan' }));
    expect(await dialog.findByText('Use pounds and pence, e.g. 70 or 115.50')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await user.clear(price);
    await user.type(price, '115.50');
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Plan' }), 'Platinum Premium');
    await user.click(dialog.getByRole('button', { name: 'Put on plan' }));
    expect(
      await screen.findByText('Paul Payg is on Platinum Premium. The first month is charged at the next renewal run.'),
    ).toBeInTheDocument();
    expect(calls).toEqual([{ p_member_id: 'm4', p_plan_slug: 'platinum', p_price: 115.5 }]);
  });

  it('tells the admin when a running plan changes at its period end, and shows the database’s refusal', async () => {
    setup();
    const answers = [
      () => ({ id: 'ms', status: 'active', period_end: '2030-03-04T12:00:00+00:00', next_plan_slug: 'standard', next_price: 70 }),
      () =>
        postgrestError(
          {
            code: 'P0001',
            message: 'This member’s last renewal failed: once they update their card you can change their plan.',
            hint: 'membership_past_due',
          },
          400,
        ),
    ];
    server.use(rpc('admin_put_on_plan', () => answers.shift()!()));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Put on plan: Priya Premium' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Put Priya Premium on a plan' }));
    await user.clear(dialog.getByRole('spinbutton', { name: /Monthly price/ }));
    await user.type(dialog.getByRole('spinbutton', { name: /Monthly price/ }), '70');
    await user.click(dialog.getByRole('button', { name: 'Put on plan' }));
    expect(
      await screen.findByText('Priya Premium moves to Standard at £70.00/month on 4 March 2030, when their paid month ends.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Put on plan: Sam Standard' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Put Sam Standard on a plan' }));
    await user.click(dialog.getByRole('button', { name: 'Put on plan' }));
    expect(
      await screen.findByText('This member’s last renewal failed: once they update their card you can change their plan.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Put Sam Standard on a plan' })).toBeInTheDocument();
  });
});
